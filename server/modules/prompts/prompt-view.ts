import type { Selectable } from 'kysely';
import { z } from 'zod';
import { PROMPT_TYPES } from '../../../shared/prompts/prompt-rules.js';
import type { PromptsTable } from './prompt-tables.js';

/** A prompt as the API returns it (spec §3: type, content, created, updated, last modified by). */
export const promptViewSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(PROMPT_TYPES),
    content: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    created_by: z.string(),
    updated_by: z.string(),
  })
  .meta({ id: 'Prompt' });
export type PromptView = z.output<typeof promptViewSchema>;

export function toPromptView(row: Selectable<PromptsTable>): PromptView {
  return {
    id: Number(row.id),
    type: row.type,
    content: row.content,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
    updated_by: row.updated_by,
  };
}
