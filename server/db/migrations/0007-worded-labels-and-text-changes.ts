import type { Kysely } from 'kysely';

// Candidate labels in every language, so a label follows its reader's language instead of the one
// the run was made in (generated_images.labels_json: {"en-US": "Lookbook grid", …}); and what the
// built-in text polish changed, shown beside a workshop result (workshop_items.result_changes_json).
export function wordedLabelsAndTextChangesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('generated_images').addColumn('labels_json', 'text').execute();
      await db.schema.alterTable('workshop_items').addColumn('result_changes_json', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('workshop_items').dropColumn('result_changes_json').execute();
      await db.schema.alterTable('generated_images').dropColumn('labels_json').execute();
    },
  };
}
