// Queries of the workshop items; every read that serves a user is scoped to that user. An item's
// state changes only through a guarded move (WORKSHOP_MOVES in row-states.ts).
import type { Insertable, Updateable } from 'kysely';
import type { GenerationDb } from '../generation/store/generation-tables.js';
import { movableFrom, WORKSHOP_MOVES } from '../generation/store/row-states.js';
import type { WorkshopItemRow, WorkshopItemsTable, WorkshopStatus } from './workshop-table.js';

export function createWorkshopRepository(db: GenerationDb, now: () => Date) {
  const stamp = () => now().toISOString();
  return {
    now: stamp,
    async insert(values: Omit<Insertable<WorkshopItemsTable>, 'created_at' | 'updated_at'>): Promise<WorkshopItemRow> {
      const t = stamp();
      return db
        .insertInto('workshop_items')
        .values({ ...values, created_at: t, updated_at: t })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    item(id: number): Promise<WorkshopItemRow | undefined> {
      return db.selectFrom('workshop_items').selectAll().where('id', '=', id).executeTakeFirst();
    },
    itemOfUser(userId: number, id: number): Promise<WorkshopItemRow | undefined> {
      return db
        .selectFrom('workshop_items')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },
    page(userId: number, page: { cursor?: number; limit: number; status?: WorkshopStatus }): Promise<WorkshopItemRow[]> {
      let q = db.selectFrom('workshop_items').selectAll().where('user_id', '=', userId);
      if (page.cursor !== undefined) q = q.where('id', '<', page.cursor);
      if (page.status) q = q.where('status', '=', page.status);
      return q.orderBy('id', 'desc').limit(page.limit + 1).execute();
    },
    /** Moves an item to `to` (with `values`) if WORKSHOP_MOVES allows it from its state now; true when it did. */
    async move(id: number, to: WorkshopStatus, values: Omit<Updateable<WorkshopItemsTable>, 'status'> = {}): Promise<boolean> {
      const from = movableFrom(WORKSHOP_MOVES, to);
      // No state may move there (an empty IN () is not SQL on PostgreSQL).
      if (from.length === 0) return false;
      const r = await db
        .updateTable('workshop_items')
        .set({ ...values, status: to, updated_at: stamp() })
        .where('id', '=', id)
        .where('status', 'in', from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}

export type WorkshopRepository = ReturnType<typeof createWorkshopRepository>;
