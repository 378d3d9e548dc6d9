// GET /user/generated-images and /user/video-generations: newest first, load more by cursor.
// Persisted (meta.persist) so the pages seen last render offline; refreshed every few seconds
// while an item on them is still pending or generating, so its status moves on the page.
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { http } from '../../../lib/api';
import { queryKeys } from '../../../lib/query/query-keys';
import { hasRunning, mergePages } from '../model/history-pages';
import type { GeneratedImage, HistoryKind, HistoryPage, VideoGeneration } from '../model/history-types';
import { PAGE_SIZE } from '../model/offline-budget';

export type HistoryItem<K extends HistoryKind> = K extends 'images' ? GeneratedImage : VideoGeneration;

const PATHS: Record<HistoryKind, string> = {
  images: '/user/generated-images',
  videos: '/user/video-generations',
};

/** While something is running, how often the list is asked again. */
export const RUNNING_REFRESH_MS = 3000;

export function fetchHistoryPage<K extends HistoryKind>(
  kind: K,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<HistoryPage<HistoryItem<K>>> {
  return http.get<HistoryPage<HistoryItem<K>>>('main', PATHS[kind], {
    params: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
    signal,
  });
}

/** `live.current`: an event stream keeps the items up to date, no timed refresh needed. */
export function useHistoryList<K extends HistoryKind>(kind: K, options: { live?: { readonly current: boolean } } = {}) {
  return useInfiniteQuery<
    HistoryPage<HistoryItem<K>>,
    Error,
    InfiniteData<HistoryPage<HistoryItem<K>>, string | null>,
    readonly unknown[],
    string | null
  >({
    queryKey: queryKeys.history.list(kind),
    queryFn: ({ pageParam, signal }) => fetchHistoryPage(kind, pageParam, signal),
    initialPageParam: null,
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : null),
    meta: { persist: true },
    refetchInterval: (query) => {
      if (options.live?.current) return false;
      const pages = query.state.data?.pages ?? [];
      return hasRunning(mergePages(pages)) && !query.state.error ? RUNNING_REFRESH_MS : false;
    },
  });
}
