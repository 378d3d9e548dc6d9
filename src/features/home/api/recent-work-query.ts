// The newest few items of GET /user/generated-images and /user/video-generations for the home
// page. Persisted, so the section shows what was there last time when offline.
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api';
import { queryKeys } from '../../../lib/query/query-keys';
import { mergeRecent, RECENT_COUNT, type RecentItem, type RecentSource } from '../model/recent-work';

interface Page {
  items: RecentSource[];
}

export async function fetchRecentWork(signal?: AbortSignal): Promise<RecentItem[]> {
  const params = { limit: RECENT_COUNT };
  const [images, videos] = await Promise.all([
    http.get<Page>('main', '/user/generated-images', { params, signal }),
    http.get<Page>('main', '/user/video-generations', { params, signal }),
  ]);
  return mergeRecent(images.items, videos.items);
}

export function useRecentWork(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.history.recent,
    queryFn: ({ signal }) => fetchRecentWork(signal),
    enabled,
    meta: { persist: true },
  });
}
