// The main group's video calls: create (one call for all chosen prompts), detail, retry, cancel,
// and the progress event stream of running videos.
import { http } from '../../../lib/api';
import { getEventStream } from '../../../lib/api/get-event-stream';
import type { StreamOutcome } from '../../../lib/api';
import { IDEMPOTENCY_HEADER } from '../../../lib/api/idempotency-key';
import type { ApiSchema } from '../../../lib/api/api-types';
import type { VideoSpecBody, VideoView } from '../model/generation-types';

/**
 * Every attempt at one batch carries the same `idempotencyKey`: an attempt whose answer was lost on
 * the way back is answered with the videos it started, never a second set.
 */
export function createVideos(items: VideoSpecBody[], idempotencyKey: string, signal?: AbortSignal): Promise<VideoView[]> {
  return http.post<VideoView[]>('main', '/user/video-generations', { items }, { signal, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });
}

export function fetchVideo(id: number, signal?: AbortSignal): Promise<VideoView> {
  return http.get<VideoView>('main', `/user/video-generations/${id}`, { signal });
}

/** One key per retry the person asked for, as for `createVideos`. */
export function retryVideo(id: number, idempotencyKey: string): Promise<VideoView> {
  return http.post<VideoView>('main', `/user/video-generations/${id}/retry`, {}, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });
}

export function cancelVideo(id: number): Promise<VideoView> {
  return http.post<VideoView>('main', `/user/video-generations/${id}/cancel`, {});
}

/** The progress stream's events as the server's schema says (generated API types). */
export type VideoEvent = ApiSchema<'VideoEvent'>;

export function streamVideoProgress(ids: number[], onEvent: (e: VideoEvent) => void, signal: AbortSignal): Promise<StreamOutcome> {
  return getEventStream<VideoEvent>({
    path: `/user/video-generations/events?ids=${ids.join(',')}`,
    onEvent,
    isFinal: (e) => e.type === 'complete',
    signal,
  });
}
