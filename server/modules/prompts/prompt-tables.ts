// Table shapes of prompt management, added to the shared schema with Kysely's withTables.
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { IdempotencyKeysTable } from '../../http/idempotency-store.js';
import type { PromptType } from '../../../shared/prompts/prompt-rules.js';

export { PROMPT_MAX_LENGTH, PROMPT_TYPES, type PromptType } from '../../../shared/prompts/prompt-rules.js';

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
