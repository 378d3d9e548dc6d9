// Reads and writes of the prompts table; every write takes the transaction it belongs to.
import type { Selectable } from 'kysely';
import { PROMPT_TYPES, type PromptDb, type PromptsTable, type PromptType } from './prompt-tables.js';

export type PromptRow = Selectable<PromptsTable>;

export function createPromptsRepository(now: () => Date) {
  return {
    async list(db: PromptDb): Promise<PromptRow[]> {
      const rows = await db.selectFrom('prompts').selectAll().execute();
      // Always image, video, moments: the page shows one card per type in this order.
      return rows.sort((a, b) => PROMPT_TYPES.indexOf(a.type) - PROMPT_TYPES.indexOf(b.type));
    },
    find: (db: PromptDb, type: PromptType): Promise<PromptRow | undefined> =>
      db.selectFrom('prompts').selectAll().where('type', '=', type).executeTakeFirst(),
    async insert(db: PromptDb, type: PromptType, content: string, by: string): Promise<PromptRow> {
      const t = now().toISOString();
      return db
        .insertInto('prompts')
        .values({ type, content, created_at: t, updated_at: t, created_by: by, updated_by: by })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    update: (db: PromptDb, type: PromptType, content: string, by: string): Promise<PromptRow | undefined> =>
      db
        .updateTable('prompts')
        .set({ content, updated_by: by, updated_at: now().toISOString() })
        .where('type', '=', type)
        .returningAll()
        .executeTakeFirst(),
    async remove(db: PromptDb, type: PromptType): Promise<boolean> {
      const r = await db.deleteFrom('prompts').where('type', '=', type).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type PromptsRepository = ReturnType<typeof createPromptsRepository>;
