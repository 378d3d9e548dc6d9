import type { Kysely } from 'kysely';

// Sign-in throttling counters that outlive a restart and are shared by replicas, and a per-user
// token version that access tokens carry, so logging out or changing a password revokes them.
export function throttleAndTokenVersionMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('throttle_counters')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('window_ends_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('throttle_counters_window')
        .on('throttle_counters')
        .column('window_ends_at')
        .execute();

      await db.schema
        .alterTable('users')
        .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      // The expiry sweep deletes by these.
      await db.schema
        .createIndex('refresh_tokens_expires')
        .on('refresh_tokens')
        .column('expires_at')
        .execute();
      await db.schema
        .createIndex('verification_codes_expires')
        .on('verification_codes')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('verification_codes_expires').execute();
      await db.schema.dropIndex('refresh_tokens_expires').execute();
      await db.schema.alterTable('users').dropColumn('token_version').execute();
      await db.schema.dropTable('throttle_counters').execute();
    },
  };
}
