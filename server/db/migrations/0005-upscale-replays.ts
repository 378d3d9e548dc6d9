import type { Kysely } from 'kysely';

// Finished keyed upscales (server/modules/upscale/durable-replays.ts): one record per (user,
// Idempotency-Key), shared by every replica on the database, so a resend that reaches another
// replica, or this one after a restart, is answered from the first run. The primary key is the
// guard that makes two replicas racing on one key write one record.
export function upscaleReplaysMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('upscale_replays')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        // The request's user, parameters and image: a key reused for other work does not match.
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        // The stored result the answer links to; a record whose result never appeared is not replayed.
        .addColumn('result_id', 'text', (c) => c.notNull())
        .addColumn('outcome_json', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('upscale_replays_pk', ['user_id', 'key'])
        .execute();
      // The sweep deletes by it.
      await db.schema.createIndex('upscale_replays_expires').on('upscale_replays').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('upscale_replays').execute();
    },
  };
}
