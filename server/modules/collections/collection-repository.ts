// Queries of the collection tables. Reads that serve a user are scoped to that user's rows; the
// stage hooks read by id. Every write after an insert is a guarded move (collection-states.ts): it
// applies only from the states the table allows — and, for an item, only while it is still at
// the stage the caller saw — and says whether it did. A stage's end that comes twice (a re-run
// after a restart) therefore moves its item once.
import type { Insertable, Updateable } from 'kysely';
import type { CollectionStatus, ItemStatus, Stage } from '../../../shared/collections/collection-types.js';
import { movableFrom } from '../generation/store/row-states.js';
import { COLLECTION_MOVES, ITEM_MOVES, OPEN_ITEM_STATUSES } from './collection-states.js';
import type {
  CollectionItemRow,
  CollectionItemsTable,
  CollectionRow,
  CollectionsDb,
  CollectionsTable,
} from './collection-tables.js';

/** Rows per INSERT: well under either database's limit on a statement's parameters. */
const INSERT_CHUNK = 100;

export interface ItemGuard {
  /** Only from these states (a subset of what ITEM_MOVES allows). */
  from?: readonly ItemStatus[];
  /** Only while the item is at this stage. */
  stage?: Stage;
}

export function createCollectionRepository(db: CollectionsDb, now: () => Date) {
  const stamp = () => now().toISOString();
  return {
    now: stamp,
    /** The same queries inside a transaction (widened with collectionsDb()). */
    within(trx: CollectionsDb) {
      return createCollectionRepository(trx, now);
    },
    /**
     * Takes the collection's row lock for the rest of the transaction: an update that changes
     * nothing, so the same statement serves PostgreSQL (a row lock) and SQLite (whose writer lock
     * already serialises). Every writer of a collection's items takes it first, so stage ends, the
     * feeder and the commands wait in one order and never deadlock.
     */
    async lockCollection(id: number): Promise<void> {
      if (!db.isTransaction) return;
      await db
        .updateTable('collections')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', id)
        .execute();
    },

    async insertCollection(values: Omit<Insertable<CollectionsTable>, 'created_at' | 'updated_at'>): Promise<CollectionRow> {
      const t = stamp();
      return db.insertInto('collections').values({ ...values, created_at: t, updated_at: t }).returningAll().executeTakeFirstOrThrow();
    },
    /** Many items in a few statements (a sheet's 500 rows are not 500 round trips). */
    async insertItems(values: Omit<Insertable<CollectionItemsTable>, 'created_at' | 'updated_at'>[]): Promise<CollectionItemRow[]> {
      const t = stamp();
      const rows: CollectionItemRow[] = [];
      for (let i = 0; i < values.length; i += INSERT_CHUNK) {
        const chunk = values.slice(i, i + INSERT_CHUNK).map((v) => ({ ...v, created_at: t, updated_at: t }));
        rows.push(...(await db.insertInto('collection_items').values(chunk).returningAll().execute()));
      }
      return rows;
    },
    /**
     * Links each new item of a collection to the request made for it (queued → queued): one
     * guarded statement for the whole collection.
     */
    async linkRequests(collectionId: number): Promise<number> {
      const r = await db
        .updateTable('collection_items')
        .set((eb) => ({
          request_id: eb
            .selectFrom('generation_requests')
            .select('generation_requests.id')
            .whereRef('generation_requests.collection_item_id', '=', 'collection_items.id'),
          updated_at: stamp(),
        }))
        .where('collection_id', '=', collectionId)
        // The queued → queued move of ITEM_MOVES: a link made only before the feeder starts the item.
        .where('status', '=', 'queued')
        .where('request_id', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    collection(id: number): Promise<CollectionRow | undefined> {
      return db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
    },
    collectionOfUser(userId: number, id: number): Promise<CollectionRow | undefined> {
      return db.selectFrom('collections').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    },
    collectionByClientId(userId: number, clientCollectionId: string): Promise<CollectionRow | undefined> {
      return db
        .selectFrom('collections')
        .selectAll()
        .where('user_id', '=', userId)
        .where('client_collection_id', '=', clientCollectionId)
        .executeTakeFirst();
    },
    item(id: number): Promise<CollectionItemRow | undefined> {
      return db.selectFrom('collection_items').selectAll().where('id', '=', id).executeTakeFirst();
    },
    itemOfCollection(collectionId: number, itemId: number): Promise<CollectionItemRow | undefined> {
      return db
        .selectFrom('collection_items')
        .selectAll()
        .where('id', '=', itemId)
        .where('collection_id', '=', collectionId)
        .executeTakeFirst();
    },
    /** The item whose current request this is (a regenerated item's old request has none). */
    itemOfRequest(requestId: number): Promise<CollectionItemRow | undefined> {
      return db.selectFrom('collection_items').selectAll().where('request_id', '=', requestId).executeTakeFirst();
    },
    itemOfVideo(videoId: number): Promise<CollectionItemRow | undefined> {
      return db.selectFrom('collection_items').selectAll().where('video_id', '=', videoId).executeTakeFirst();
    },
    /** The item waiting for this image's video prompts (the picked image of an item at that stage). */
    itemAwaitingPrompts(imageId: number): Promise<CollectionItemRow | undefined> {
      return db
        .selectFrom('collection_items')
        .selectAll()
        .where('picked_image_id', '=', imageId)
        .where('stage', '=', 'video_prompts')
        .where('status', '=', 'running')
        .orderBy('id')
        .executeTakeFirst();
    },
    itemsOfCollection(collectionId: number): Promise<CollectionItemRow[]> {
      return db.selectFrom('collection_items').selectAll().where('collection_id', '=', collectionId).orderBy('position').execute();
    },
    /** The next `limit` queued items of a collection, in sheet order. */
    nextQueued(collectionId: number, limit: number): Promise<CollectionItemRow[]> {
      if (limit <= 0) return Promise.resolve([]);
      return db
        .selectFrom('collection_items')
        .selectAll()
        .where('collection_id', '=', collectionId)
        .where('status', '=', 'queued')
        .orderBy('position')
        .limit(limit)
        .execute();
    },
    async countItems(collectionId: number, statuses: readonly ItemStatus[]): Promise<number> {
      const row = await db
        .selectFrom('collection_items')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('collection_id', '=', collectionId)
        .where('status', 'in', [...statuses])
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** A user's items that still have work ahead, over all their collections (the per-user cap). */
    async countOpenOfUser(userId: number): Promise<number> {
      const row = await db
        .selectFrom('collection_items')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .where('status', 'in', [...OPEN_ITEM_STATUSES])
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Moves a collection to `to` if COLLECTION_MOVES allows it from its state now; true when it did. */
    async moveCollection(
      id: number,
      to: CollectionStatus,
      values: Omit<Updateable<CollectionsTable>, 'status'> = {},
      from: readonly CollectionStatus[] = movableFrom(COLLECTION_MOVES, to),
    ): Promise<boolean> {
      const allowed = from.filter((s) => COLLECTION_MOVES[to].includes(s));
      if (allowed.length === 0) return false;
      const r = await db
        .updateTable('collections')
        .set({ ...values, status: to, updated_at: stamp() })
        .where('id', '=', id)
        .where('status', 'in', allowed)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Moves an item to `to` if ITEM_MOVES allows it from its state (and stage) now; true when it did. */
    async moveItem(
      id: number,
      to: ItemStatus,
      values: Omit<Updateable<CollectionItemsTable>, 'status'> = {},
      guard: ItemGuard = {},
    ): Promise<boolean> {
      const allowed = (guard.from ?? ITEM_MOVES[to]).filter((s) => ITEM_MOVES[to].includes(s));
      if (allowed.length === 0) return false;
      let q = db
        .updateTable('collection_items')
        .set({ ...values, status: to, updated_at: stamp() })
        .where('id', '=', id)
        .where('status', 'in', allowed);
      if (guard.stage) q = q.where('stage', '=', guard.stage);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}

export type CollectionRepository = ReturnType<typeof createCollectionRepository>;
