// The main group's video calls: create (one call for all chosen prompts), detail, retry, cancel,
// and the progress event stream of running videos.
import { http } from '../../../lib/api';
import { getEventStream } from '../../../lib/api/get-event-stream';
import type { StreamOutcome } from '../../../lib/api';
import type { VideoSpecBody, VideoView } from '../model/generation-types';

export function createVideos(items: VideoSpecBody[], signal?: AbortSignal): Promise<VideoView[]> {
  return http.post<VideoView[]>('main', '/user/video-generations', { items }, { signal });
}

export function fetchVideo(id: number, signal?: AbortSignal): Promise<VideoView> {
  return http.get<VideoView>('main', `/user/video-generations/${id}`, { signal });
}

export function retryVideo(id: number): Promise<VideoView> {
  return http.post<VideoView>('main', `/user/video-generations/${id}/retry`, {});
}

export function cancelVideo(id: number): Promise<VideoView> {
  return http.post<VideoView>('main', `/user/video-generations/${id}/cancel`, {});
}

export type VideoEvent =
  | { type: 'video'; video: VideoView }
  /** message: what a self-hosted engine says (queue position, sampler steps, frames), in the user's language. */
  | { type: 'progress'; id: number; status: string; progress?: number; message?: string; retry_in_ms?: number }
  | { type: 'complete' };

export function streamVideoProgress(ids: number[], onEvent: (e: VideoEvent) => void, signal: AbortSignal): Promise<StreamOutcome> {
  return getEventStream<VideoEvent>({
    path: `/user/video-generations/events?ids=${ids.join(',')}`,
    onEvent,
    isFinal: (e) => e.type === 'complete',
    signal,
  });
}
