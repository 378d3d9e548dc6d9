// Table shapes of prompt management, added to the shared schema with Kysely's withTables.
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { IdempotencyKeysTable } from '../../http/idempotency-store.js';

export const PROMPT_TYPES = ['image', 'video', 'moments'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];
/** Spec §5 / §9: prompt text is at most 1000 characters (UTF-16 units, as the browser counts). */
export const PROMPT_MAX_LENGTH = 1000;

export interface PromptsTable {
  id: Generated<number>;
  type: PromptType;
  content: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

// A type alias, not an interface: withTables needs an index-compatible record type.
export type PromptTables = {
  prompts: PromptsTable;
  idempotency_keys: IdempotencyKeysTable;
};

export type PromptDb = Kysely<Database & PromptTables>;

export function promptDb(db: Kysely<Database>): PromptDb {
  return db.withTables<PromptTables>();
}
