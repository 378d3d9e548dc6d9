// A video row as the tests insert it straight into the store: every column with the value of a
// fresh standard 6 s video with no files yet, and the test's own values on top.
import type { Insertable } from 'kysely';
import type { VideoGenerationsTable } from '../../../../server/modules/generation/store/generation-tables.js';

export type NewVideoRow = Omit<Insertable<VideoGenerationsTable>, 'created_at' | 'updated_at'>;

export function videoRow(values: Pick<NewVideoRow, 'user_id' | 'status'> & Partial<NewVideoRow>): NewVideoRow {
  return {
    source_image_id: null,
    last_image_id: null,
    video_prompt_id: null,
    retry_of_id: null,
    kind: 'standard',
    user_prompt: null,
    video_prompt: 'A slow turn',
    style: null,
    camera_json: '[]',
    aspect: 'auto',
    duration_seconds: 6,
    resolution: '768P',
    prompt_optimizer: 1,
    watermark: 0,
    language: 'en-US',
    first_frame_file_id: null,
    last_frame_file_id: null,
    provider: null,
    model: null,
    task_id: null,
    provider_file_id: null,
    result_file_id: null,
    thumbnail_file_id: null,
    width: null,
    height: null,
    params_json: null,
    progress: 0,
    requested_at: new Date().toISOString(),
    started_at: null,
    completed_at: null,
    processing_ms: null,
    error_code: null,
    error_key: null,
    error_detail: null,
    ...values,
  };
}
