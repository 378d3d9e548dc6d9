// Table shapes of the generation service (migration 0004), added to the shared schema with
// Kysely's withTables like prompt management's.
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { JobTables } from '../../../jobs/job-table.js';
import type { FileTables } from '../../../storage/file-table.js';
import type { WorkshopTables } from '../../workshop/workshop-table.js';

/** Spec §4 history states. */
export const GENERATION_STATUSES = ['pending', 'generating', 'failed', 'completed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

/** A failure as stored: the spec's message key, the provider's error kind, the provider's text. */
export interface FailureColumns {
  error_code: string | null;
  error_key: string | null;
  error_detail: string | null;
}

/** The job run that owns the row now (migration 0010, server/jobs/run-owner.ts). */
interface OwnedRow {
  run_owner: string | null;
}

export interface GenerationRequestsTable extends FailureColumns, OwnedRow {
  id: Generated<number>;
  user_id: number;
  client_request_id: string;
  prompt: string;
  description: string | null;
  fabric_json: string;
  language: string;
  aspect: string;
  status: GenerationStatus;
  analysis_text: string | null;
  analysis_json: string | null;
  model: string | null;
  provider: string | null;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  /** Candidates the analysis makes; null = CANDIDATE_COUNT (migration 0012: a collection's setting). */
  candidate_count: number | null;
  /** The collection item this request runs for (migration 0012); null for the workflow's own. */
  collection_item_id: number | null;
}

export type UploadRole = 'model' | 'pattern';

export interface GenerationRequestImagesTable {
  id: Generated<number>;
  request_id: number;
  file_id: string;
  role: UploadRole;
  position: number;
}

export interface GeneratedImagesTable extends FailureColumns, OwnedRow {
  id: Generated<number>;
  user_id: number;
  request_id: number | null;
  parent_image_id: number | null;
  generation_id: string;
  position: number;
  prompt: string;
  status: GenerationStatus;
  file_id: string | null;
  thumbnail_file_id: string | null;
  width: number | null;
  height: number | null;
  aspect: string;
  style: string | null;
  model: string | null;
  provider: string | null;
  moments_text: string | null;
  label: string | null;
  /** JSON {language: label} when the provider worded the label in every language (migration 0006). */
  labels_json: string | null;
  /** The provider's task making this image, saved before it is sent (migration 0009). */
  task_id: string | null;
  language: string;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface VideoPromptsTable {
  id: Generated<number>;
  user_id: number;
  image_id: number;
  position: number;
  prompt: string;
  camera_json: string;
  scene: string | null;
  mood: string | null;
  model: string | null;
  edited: number;
  created_at: string;
  updated_at: string;
}

export interface VideoGenerationsTable extends FailureColumns, OwnedRow {
  id: Generated<number>;
  user_id: number;
  source_image_id: number | null;
  last_image_id: number | null;
  video_prompt_id: number | null;
  retry_of_id: number | null;
  kind: string;
  status: GenerationStatus;
  user_prompt: string | null;
  video_prompt: string;
  style: string | null;
  camera_json: string;
  aspect: string;
  duration_seconds: number;
  resolution: string;
  prompt_optimizer: number;
  watermark: number;
  language: string;
  first_frame_file_id: string | null;
  last_frame_file_id: string | null;
  provider: string | null;
  model: string | null;
  task_id: string | null;
  provider_file_id: string | null;
  result_file_id: string | null;
  thumbnail_file_id: string | null;
  width: number | null;
  height: number | null;
  params_json: string | null;
  progress: number;
  requested_at: string;
  started_at: string | null;
  completed_at: string | null;
  processing_ms: number | null;
  created_at: string;
  updated_at: string;
}

export type GenerationTables = {
  generation_requests: GenerationRequestsTable;
  generation_request_images: GenerationRequestImagesTable;
  generated_images: GeneratedImagesTable;
  video_prompts: VideoPromptsTable;
  video_generations: VideoGenerationsTable;
};

/** Every table the generation and workshop modules read, over the shared schema. */
export type GenerationDb = Kysely<Database & GenerationTables & WorkshopTables & JobTables & FileTables>;

export function generationDb(db: Kysely<Database>): GenerationDb {
  return db.withTables<GenerationTables & WorkshopTables & JobTables & FileTables>();
}

export type GenerationRequestRow = Selectable<GenerationRequestsTable>;
export type GeneratedImageRow = Selectable<GeneratedImagesTable>;
export type VideoPromptRow = Selectable<VideoPromptsTable>;
export type VideoGenerationRow = Selectable<VideoGenerationsTable>;
