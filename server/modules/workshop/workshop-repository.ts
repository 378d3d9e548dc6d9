// Queries of the workshop items; every read that serves a user is scoped to that user.
import type { Insertable, Updateable } from 'kysely';
import type { GenerationDb } from '../generation/generation-tables.js';
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
    async update(id: number, values: Updateable<WorkshopItemsTable>): Promise<void> {
      await db
        .updateTable('workshop_items')
        .set({ ...values, updated_at: stamp() })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type WorkshopRepository = ReturnType<typeof createWorkshopRepository>;
