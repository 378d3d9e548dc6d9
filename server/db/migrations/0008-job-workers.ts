import type { Kysely } from 'kysely';

// Team mode's workers and the jobs each one runs (server/jobs/pgboss/worker-leases.ts). The
// heartbeat table of upscale workers becomes the one table of every process that runs jobs: its
// job engine writes seen_at every few seconds, and a worker with upscale engines adds its slots
// and models (0 and [] otherwise). job_owners says which worker runs each active pg-boss job; it
// is written in the transaction that takes the job, so a sweep can hand the jobs of a worker whose
// heartbeat stopped back to the engine at once, and a worker that lost a job cannot complete it.
// The embedded default never writes them.
export function jobWorkersMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('upscale_workers').renameTo('workers').execute();
      await db.schema
        .createTable('job_owners')
        // pg-boss's job id (a UUID, as text).
        .addColumn('job_id', 'text', (c) => c.primaryKey())
        .addColumn('worker_id', 'text', (c) => c.notNull())
        .addColumn('queue', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('job_owners_worker').on('job_owners').column('worker_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('job_owners').execute();
      await db.schema.alterTable('workers').renameTo('upscale_workers').execute();
    },
  };
}
