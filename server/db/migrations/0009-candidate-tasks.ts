import type { Kysely } from 'kysely';

// The provider's task of a candidate image (ComfyUI's prompt id), saved before the task is sent,
// so a cancel and the run after a restart know it whether the provider had answered or not.
export function candidateTasksMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('generated_images').addColumn('task_id', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('generated_images').dropColumn('task_id').execute();
    },
  };
}
