import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Collection mode (server/modules/collections/): a season's fabrics run as one queued, resumable
// batch. One row per collection and one per fabric (item); each item carries its own analyse
// request through the same jobs as the one-fabric workflow, so history links a request back to its
// collection (generation_requests.collection_item_id) and a request made for a collection keeps
// its number of candidates (candidate_count, null = the workflow's six).
export function collectionsMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  type Table = ReturnType<Kysely<unknown>['schema']['createTable']>;
  const withId = (t: Table) =>
    t.addColumn('id', id, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()));
  const userRef = (t: Table) =>
    t.addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'));
  const times = (t: Table) =>
    t.addColumn('created_at', 'text', (c) => c.notNull()).addColumn('updated_at', 'text', (c) => c.notNull());

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await times(
        userRef(withId(db.schema.createTable('collections')))
          // The page's own id: a resent create call finds the collection it made.
          .addColumn('client_collection_id', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('language', 'text', (c) => c.notNull())
          // running | paused | cancelled | completed
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('settings_json', 'text', (c) => c.notNull())
          .addColumn('completed_at', 'text'),
      ).execute();
      await db.schema
        .createIndex('collections_client_id')
        .on('collections')
        .columns(['user_id', 'client_collection_id'])
        .unique()
        .execute();

      await times(
        userRef(withId(db.schema.createTable('collection_items')))
          .addColumn('collection_id', 'integer', (c) => c.notNull().references('collections.id').onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('code', 'text', (c) => c.notNull())
          .addColumn('name', 'text')
          .addColumn('fabric_json', 'text', (c) => c.notNull())
          .addColumn('description', 'text')
          .addColumn('overrides_json', 'text')
          .addColumn('request_id', 'integer', (c) => c.references('generation_requests.id').onDelete('set null'))
          // queued | running | review | done | failed | skipped | cancelled
          .addColumn('status', 'text', (c) => c.notNull())
          // analysis | candidates | pick | video_prompts | video
          .addColumn('stage', 'text', (c) => c.notNull())
          .addColumn('picked_image_id', 'integer', (c) => c.references('generated_images.id').onDelete('set null'))
          .addColumn('pick_by', 'text')
          .addColumn('pick_json', 'text')
          .addColumn('video_prompt_id', 'integer', (c) => c.references('video_prompts.id').onDelete('set null'))
          .addColumn('video_id', 'integer', (c) => c.references('video_generations.id').onDelete('set null'))
          .addColumn('error_code', 'text')
          .addColumn('error_key', 'text')
          .addColumn('error_detail', 'text')
          .addColumn('started_at', 'text')
          .addColumn('completed_at', 'text')
          .addColumn('stage_started_at', 'text'),
      ).execute();
      await db.schema
        .createIndex('collection_items_code')
        .on('collection_items')
        .columns(['collection_id', 'code'])
        .unique()
        .execute();
      await db.schema.createIndex('collection_items_request').on('collection_items').column('request_id').unique().execute();
      // The feeder's question: the next queued item of a collection, in sheet order.
      await db.schema
        .createIndex('collection_items_feed')
        .on('collection_items')
        .columns(['collection_id', 'status', 'position'])
        .execute();
      // The per-user cap counts a user's open items.
      await db.schema.createIndex('collection_items_user').on('collection_items').columns(['user_id', 'status']).execute();

      await db.schema.alterTable('generation_requests').addColumn('candidate_count', 'integer').execute();
      await db.schema.alterTable('generation_requests').addColumn('collection_item_id', 'integer').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('generation_requests').dropColumn('collection_item_id').execute();
      await db.schema.alterTable('generation_requests').dropColumn('candidate_count').execute();
      await db.schema.dropTable('collection_items').execute();
      await db.schema.dropTable('collections').execute();
    },
  };
}
