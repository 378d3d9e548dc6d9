// POST /regenerate-stream (image group, JSON) and its cancel: new images from one candidate and a prompt.
import { http, type StreamOutcome } from '../../../lib/api';
import { postEventStream } from '../../../lib/api/post-event-stream';
import type { ApiSchema } from '../../../lib/api/api-types';

/** The stream's events as the server's schema says (generated API types). */
export type RegenerateEvent = ApiSchema<'RegenerateEvent'>;

export function streamRegeneration(
  input: { imageId: number; prompt: string; language: string },
  onEvent: (e: RegenerateEvent) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return postEventStream<RegenerateEvent>({
    path: '/regenerate-stream',
    body: { user_generated_image_id: input.imageId, prompt: input.prompt, language: input.language },
    onEvent,
    isFinal: (e) => e.type === 'complete' || e.type === 'error',
    signal,
  });
}

export function cancelRegeneration(generationId: string): Promise<unknown> {
  return http.post('image', `/regenerations/${generationId}/cancel`, {});
}
