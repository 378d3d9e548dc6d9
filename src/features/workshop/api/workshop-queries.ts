// Queries of the workshop: the models on offer and the person's items (persisted, so results
// read offline and after a reload). The list is polled while an item runs on the server that no
// event stream follows (one could not be opened); a followed item's stream updates it here.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query/query-keys';
import { isRunning, type WorkshopItem, type WorkshopPage } from '../model/workshop-item';
import { fetchWorkshopItems, fetchWorkshopModels } from './workshop-api';

export const POLL_MS = 1500;

export const workshopModelsQuery = () =>
  queryOptions({
    queryKey: queryKeys.workshop.models(),
    queryFn: ({ signal }) => fetchWorkshopModels(signal),
    staleTime: 5 * 60_000,
    meta: { persist: true },
  });

export function useWorkshopModels() {
  return useQuery(workshopModelsQuery());
}

export const workshopItemsQuery = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.workshop.items(),
    queryFn: ({ pageParam, signal }) => fetchWorkshopItems({ cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: WorkshopPage) => (last.has_more ? last.next_cursor : null),
    meta: { persist: true },
    maxPages: 5,
  });

export function flattenItems(pages: readonly WorkshopPage[] | undefined): WorkshopItem[] {
  const seen = new Set<number>();
  const out: WorkshopItem[] = [];
  for (const page of pages ?? []) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
    }
  }
  return out;
}

/** `streamed`: running items whose event stream is open; they are not polled for. */
export function useWorkshopItems(streamed: ReadonlySet<number> = new Set()) {
  return useInfiniteQuery({
    ...workshopItemsQuery(),
    refetchInterval: (query) =>
      flattenItems(query.state.data?.pages).some((item) => isRunning(item.status) && !streamed.has(item.id)) ? POLL_MS : false,
  });
}

type Pages = InfiniteData<WorkshopPage, string | null>;

/** Puts an item as the server answered it into the cached list (first, when it is new). */
export function putWorkshopItem(queryClient: QueryClient, item: WorkshopItem): void {
  queryClient.setQueryData<Pages>(queryKeys.workshop.items(), (data) => {
    if (!data || data.pages.length === 0) {
      return { pages: [{ items: [item], next_cursor: null, has_more: false }], pageParams: [null] };
    }
    const present = data.pages.some((p) => p.items.some((i) => i.id === item.id));
    const pages = data.pages.map((page, index) => {
      if (present) return { ...page, items: page.items.map((i) => (i.id === item.id ? item : i)) };
      return index === 0 ? { ...page, items: [item, ...page.items] } : page;
    });
    return { ...data, pages };
  });
}

/** A cached item's state as its stream tells it (pending → processing), leaving the rest as it was. */
export function setCachedWorkshopStatus(queryClient: QueryClient, id: number, status: WorkshopItem['status']): void {
  queryClient.setQueryData<Pages>(queryKeys.workshop.items(), (data) => {
    if (!data?.pages.some((p) => p.items.some((i) => i.id === id && i.status !== status))) return data;
    return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((i) => (i.id === id ? { ...i, status } : i)) })) };
  });
}
