import type { Kysely } from 'kysely';

// A job's fairness class when its caller chose one (server/jobs/fair-share.ts): a collection's
// analyses and candidates are the same kinds a person watches at the workflow page, but nobody
// waits on each of them, so they queue as batch work and never hold another person's analysis
// from its slot. Null: the class of the job's kind, as before.
export function jobClassMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('jobs').addColumn('job_class', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('jobs').dropColumn('job_class').execute();
    },
  };
}
