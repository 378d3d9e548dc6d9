// Queries of the workshop: the models on offer and the person's items (persisted, so results
// read offline and after a reload). The list is polled while anything still runs on the server.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
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

export function useWorkshopItems() {
  return useInfiniteQuery({
    ...workshopItemsQuery(),
    refetchInterval: (query) =>
      flattenItems(query.state.data?.pages).some((item) => isRunning(item.status)) ? POLL_MS : false,
  });
}
