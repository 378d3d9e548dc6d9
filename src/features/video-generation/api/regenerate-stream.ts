// POST /regenerate-stream (image group, JSON) and its cancel: new images from one candidate and a prompt.
import { http, type StreamOutcome } from '../../../lib/api';
import { postEventStream } from '../../../lib/api/post-event-stream';
import type { GeneratedImage } from '../model/generation-types';

export type RegenerateEvent =
  | { type: 'connected' | 'start'; new_gemini_generation_id?: number; original_generation_id?: number }
  | { type: 'progress'; progress?: number; message?: string }
  | { type: 'image_ready'; source: 'original' | 'gemini'; image: GeneratedImage }
  | { type: 'complete'; images: GeneratedImage[]; count: number; new_gemini_generation_id?: number }
  | { type: 'error'; code?: string; message?: string };

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

export function cancelRegeneration(generationId: number): Promise<unknown> {
  return http.post('image', `/regenerations/${generationId}/cancel`, {});
}
