// POST /video-prompts-stream: three video prompts for each selected image; PUT /user/video-prompts/{id}.
import { http, type StreamOutcome } from '../../../lib/api';
import { postEventStream } from '../../../lib/api/post-event-stream';
import type { VideoPromptView } from '../model/generation-types';

export type VideoPromptsEvent =
  | { type: 'connected'; image_ids: number[] }
  | { type: 'progress'; image_id?: number; progress?: number; message?: string }
  /** A piece of option `index`'s prompt as it is written; `offset`: where it starts in that prompt. */
  | { type: 'prompt_streaming'; image_id: number; index: number; content: string; offset: number }
  /** The image's prompt writing starts again after a cut: its drafts so far are dropped. */
  | { type: 'prompt_streaming_reset'; image_id: number }
  | { type: 'prompts'; image_id: number; prompts: VideoPromptView[] }
  | { type: 'image_error'; image_id: number; code?: string; message?: string }
  | { type: 'complete'; count: number }
  | { type: 'error'; code?: string; message?: string };

export function streamVideoPrompts(
  input: { imageIds: number[]; language: string; fabricInfo: Record<string, string> },
  onEvent: (e: VideoPromptsEvent) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return postEventStream<VideoPromptsEvent>({
    path: '/video-prompts-stream',
    body: { image_ids: input.imageIds, language: input.language, fabric_info: input.fabricInfo },
    onEvent,
    isFinal: (e) => e.type === 'complete' || e.type === 'error',
    signal,
  });
}

export function saveVideoPrompt(id: number, prompt: string): Promise<VideoPromptView> {
  return http.put<VideoPromptView>('main', `/user/video-prompts/${id}`, { prompt });
}
