// The workshop_items table (migration 0004): one text, image or mixed enhancement and its result.
import type { Generated, Selectable } from 'kysely';
import type { WorkshopType } from '../../../shared/workshop/workshop-options.js';

/** Spec §4 workshop item states. */
export const WORKSHOP_STATUSES = ['pending', 'processing', 'completed', 'error'] as const;
export type WorkshopStatus = (typeof WORKSHOP_STATUSES)[number];
export { WORKSHOP_TYPES, type WorkshopType } from '../../../shared/workshop/workshop-options.js';

export interface WorkshopItemsTable {
  id: Generated<number>;
  user_id: number;
  type: WorkshopType;
  status: WorkshopStatus;
  input_text: string | null;
  /** JSON array of stored file ids. */
  input_file_ids: string;
  /** JSON {model, creativity, precision, style}. */
  config_json: string;
  language: string;
  result_text: string | null;
  /** JSON array of stored file ids. */
  result_file_ids: string | null;
  confidence: number | null;
  model: string | null;
  /** JSON list of what the built-in text polish changed (migration 0006). */
  result_changes_json: string | null;
  provider: string | null;
  started_at: string | null;
  completed_at: string | null;
  processing_ms: number | null;
  error_code: string | null;
  error_key: string | null;
  error_detail: string | null;
  created_at: string;
  updated_at: string;
}

export type WorkshopTables = { workshop_items: WorkshopItemsTable };
export type WorkshopItemRow = Selectable<WorkshopItemsTable>;
