// Table shapes of collection mode (migration 0012), added to the generation tables with Kysely's
// withTables as generationDb() adds its own to the shared schema.
import type { Generated, Kysely, Selectable } from 'kysely';
import type { CollectionStatus, ItemStatus, PickBy, Stage } from '../../../shared/collections/collection-types.js';
import type { Database } from '../../db/schema.js';
import type { JobTables } from '../../jobs/job-table.js';
import type { FileTables } from '../../storage/file-table.js';
import type { FailureColumns, GenerationTables } from '../generation/store/generation-tables.js';
import type { WorkshopTables } from '../workshop/workshop-table.js';

export interface CollectionsTable {
  id: Generated<number>;
  user_id: number;
  client_collection_id: string;
  name: string;
  language: string;
  status: CollectionStatus;
  /** CollectionSettings as JSON (collection-settings.ts). */
  settings_json: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface CollectionItemsTable extends FailureColumns {
  id: Generated<number>;
  collection_id: number;
  user_id: number;
  /** Sheet order: the feeder starts items in it. */
  position: number;
  code: string;
  name: string | null;
  fabric_json: string;
  description: string | null;
  /** ItemOverrides as JSON, null when the row changes nothing. */
  overrides_json: string | null;
  request_id: number | null;
  status: ItemStatus;
  stage: Stage;
  picked_image_id: number | null;
  pick_by: PickBy | null;
  /** What the pick rule measured (pick-score.ts), as JSON. */
  pick_json: string | null;
  video_prompt_id: number | null;
  video_id: number | null;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  stage_started_at: string | null;
}

export type CollectionTables = {
  collections: CollectionsTable;
  collection_items: CollectionItemsTable;
};

/** Every table collection mode reads: its own, the generation service's, and the job tables. */
export type CollectionsDb = Kysely<Database & CollectionTables & GenerationTables & WorkshopTables & JobTables & FileTables>;

export function collectionsDb(db: Kysely<Database>): CollectionsDb {
  return db.withTables<CollectionTables & GenerationTables & WorkshopTables & JobTables & FileTables>();
}

export type CollectionRow = Selectable<CollectionsTable>;
export type CollectionItemRow = Selectable<CollectionItemsTable>;
