import type { Kysely } from 'kysely';

// The run of a job that owns each generation row now (server/jobs/run-owner.ts). A run takes its
// rows as it starts, and every write it makes to them applies only while it still owns them: a
// run that lost its job (another worker took it over) cannot write its row any more, as an upscale
// job's row is written only by the worker that runs it.
const TABLES = ['generation_requests', 'generated_images', 'video_generations'];

export function rowOwnersMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of TABLES) await db.schema.alterTable(table).addColumn('run_owner', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of TABLES) await db.schema.alterTable(table).dropColumn('run_owner').execute();
    },
  };
}
