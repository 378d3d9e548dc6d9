// Job kinds of the generation service and the progress topics their streams watch.
import type { TaskProgress } from '../../providers/capabilities.js';
export const JOB_KINDS = {
  analysis: 'analysis',
  candidates: 'candidates',
  regenerate: 'regenerate',
  videoPrompts: 'video-prompts',
  video: 'video',
} as const;

export const topics = {
  request: (id: number) => `request:${id}`,
  regenerate: (generationId: string) => `regenerate:${generationId}`,
  videoPrompts: (imageId: number) => `video-prompts:${imageId}`,
  video: (id: number) => `video:${id}`,
};

/** What the job handlers publish; the streams turn it into the spec's events in the user's language. */
export type GenerationEvent =
  | { type: 'started' }
  /** A piece of streamed text; `offset` is where it starts in this attempt's text. */
  | { type: 'text'; content: string; offset: number }
  /** A piece of video prompt option `index` as it is written; `offset` is where it starts in that prompt. */
  | { type: 'prompt_text'; index: number; content: string; offset: number }
  /** A new attempt starts: the text streamed so far is void. */
  | { type: 'text_reset' }
  | { type: 'analysed' }
  | { type: 'image_ready'; image_id: number; index: number; total: number }
  | { type: 'prompts_ready'; image_id: number }
  /** detail: what a self-hosted engine told (queue position, sampler steps, frames); index: which candidate. */
  | { type: 'progress'; progress: number; detail?: TaskProgress; index?: number }
  | { type: 'retrying'; delay_ms: number; code: string }
  | { type: 'completed' }
  | { type: 'failed'; error_code: string | null; error_key: string | null };

export const CANDIDATE_COUNT = 6;
export const VIDEO_PROMPTS_PER_IMAGE = 3;
