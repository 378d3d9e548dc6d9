import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Upscales through the job queue in team mode (server/modules/upscale/team-jobs.ts): one row per
// image an API replica accepted, written in the same transaction as its job, and the workers that
// run them (their heartbeat, engine slots and model list). The embedded default never writes
// them. The unique (user_id, idem_key) index is the guard that makes a resend with the same
// Idempotency-Key, at any replica, find the first job instead of creating a second one (rows
// without a key hold NULL there, and NULLs never collide).
export function upscaleJobsMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('upscale_jobs')
        .addColumn('id', id, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('idem_key', 'text')
        .addColumn('fingerprint', 'text')
        // The request a batch image belongs to: a batch waits in the queue as one request.
        .addColumn('batch_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        // The stored input (upscale-inputs/<input_ref> on the shared volume or in the bucket).
        .addColumn('input_ref', 'text', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('params_json', 'text', (c) => c.notNull())
        .addColumn('outcome_json', 'text')
        .addColumn('error_json', 'text')
        // Requests waiting for this job's answer, on any replica (a keyed job outlives its last
        // client for the resend grace only when this is 0).
        .addColumn('clients', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('worker_id', 'text')
        .addColumn('duration_ms', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('upscale_jobs_key').unique().on('upscale_jobs').columns(['user_id', 'idem_key']).execute();
      await db.schema.createIndex('upscale_jobs_status').on('upscale_jobs').columns(['status', 'finished_at']).execute();
      await db.schema
        .createTable('upscale_workers')
        .addColumn('worker_id', 'text', (c) => c.primaryKey())
        .addColumn('slots', 'integer', (c) => c.notNull())
        .addColumn('models_json', 'text', (c) => c.notNull())
        .addColumn('seen_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('upscale_workers').execute();
      await db.schema.dropTable('upscale_jobs').execute();
    },
  };
}
