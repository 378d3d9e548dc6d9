// GET /user/generated-images/{id} and /user/video-generations/{id}: every field of spec §3.
// Persisted, so a detail opened once opens again offline; refreshed while the item runs.
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api';
import { queryKeys } from '../../../lib/query/query-keys';
import { isRunning } from '../model/history-pages';
import type { ImageDetail, VideoDetail } from '../model/history-types';
import { RUNNING_REFRESH_MS } from './history-list-query';

export function fetchImageDetail(id: number, signal?: AbortSignal): Promise<ImageDetail> {
  return http.get<ImageDetail>('main', `/user/generated-images/${id}`, { signal });
}

export function fetchVideoDetail(id: number, signal?: AbortSignal): Promise<VideoDetail> {
  return http.get<VideoDetail>('main', `/user/video-generations/${id}`, { signal });
}

export function useImageDetail(id: number | null) {
  return useQuery({
    queryKey: queryKeys.history.detail('image', id ?? 0),
    queryFn: ({ signal }) => fetchImageDetail(id ?? 0, signal),
    enabled: id !== null,
    meta: { persist: true },
    refetchInterval: (query) => (query.state.data && isRunning(query.state.data.status) ? RUNNING_REFRESH_MS : false),
  });
}

export function useVideoDetail(id: number | null) {
  return useQuery({
    queryKey: queryKeys.history.detail('video', id ?? 0),
    queryFn: ({ signal }) => fetchVideoDetail(id ?? 0, signal),
    enabled: id !== null,
    meta: { persist: true },
    refetchInterval: (query) => (query.state.data && isRunning(query.state.data.status) ? RUNNING_REFRESH_MS : false),
  });
}
