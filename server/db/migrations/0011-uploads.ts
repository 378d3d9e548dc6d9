import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Resumable uploads on the tus protocol (server/modules/uploads/): one row per upload a user
// created, whichever replica took its bytes. The row is where ownership is checked, where one
// user's unfinished uploads are counted against their bounds, and what the expiry sweep walks;
// the bytes themselves live in the store (DATA_DIR/uploads or the bucket's uploads/).
export function uploadsMigration(dialect: Dialect) {
  // A length is at most UPLOAD_LIMIT_BYTES (200 MB), but their sums are compared in SQL.
  const bytes = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('file_type', 'text', (c) => c.notNull())
        .addColumn('length', bytes, (c) => c.notNull())
        .addColumn('upload_offset', bytes, (c) => c.notNull().defaultTo(0))
        // 1 once every byte is in and the image passed its checks: only then may a call use it.
        .addColumn('finished', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('uploads_user')
        .on('uploads')
        .columns(['user_id', 'finished', 'expires_at'])
        .execute();
      await db.schema.createIndex('uploads_expiry').on('uploads').columns(['expires_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('uploads').execute();
    },
  };
}
