// POST /video-prompts-stream: three video prompts for each selected image; PUT /user/video-prompts/{id}.
import { http, type StreamOutcome } from '../../../lib/api';
import { postEventStream } from '../../../lib/api/post-event-stream';
import type { ApiSchema } from '../../../lib/api/api-types';
import type { VideoPromptView } from '../model/generation-types';

/**
 * The stream's events as the server's schema says (generated API types): prompt_streaming is a piece
 * of option `index`'s prompt at `offset`; prompt_streaming_reset drops an image's drafts after a cut.
 */
export type VideoPromptsEvent = ApiSchema<'VideoPromptsEvent'>;

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
