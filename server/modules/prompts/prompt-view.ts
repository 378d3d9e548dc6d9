import type { Selectable } from 'kysely';
import type { PromptsTable, PromptType } from './prompt-tables.js';

/** A prompt as the API returns it (spec §3: type, content, created, updated, last modified by). */
export interface PromptView {
  id: number;
  type: PromptType;
  content: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

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
