// Keeps what the device stores of history within the offline budget: the lists are cut to their
// newest pages when the page is left or hidden, and details beyond the budget go least recently
// used first (a detail's last load is its last use online).
import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryKeys } from '../../../lib/query/query-keys';
import { entriesOverBudget, trimToBudget } from '../model/history-pages';
import type { HistoryKind, HistoryPage } from '../model/history-types';
import { OFFLINE_DETAILS, OFFLINE_LIST_ITEMS } from '../model/offline-budget';

export function trimHistoryLists(queryClient: QueryClient): void {
  for (const kind of ['images', 'videos'] as HistoryKind[]) {
    const key = queryKeys.history.list(kind);
    const data = queryClient.getQueryData<InfiniteData<HistoryPage<unknown>, string | null>>(key);
    if (!data) continue;
    const trimmed = trimToBudget(data, OFFLINE_LIST_ITEMS);
    if (trimmed !== data) {
      const state = queryClient.getQueryState(key);
      queryClient.setQueryData(key, trimmed, { updatedAt: state?.dataUpdatedAt });
    }
  }
}

export function pruneHistoryDetails(queryClient: QueryClient): void {
  const queries = queryClient.getQueryCache().findAll({ queryKey: queryKeys.history.details });
  const drop = entriesOverBudget(
    queries.filter((q) => q.state.data !== undefined).map((q) => ({ key: q.queryKey, usedAt: q.state.dataUpdatedAt })),
    OFFLINE_DETAILS,
  );
  for (const key of drop) queryClient.removeQueries({ queryKey: key, exact: true });
}

export function useOfflineBudget(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') trimHistoryLists(queryClient);
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      trimHistoryLists(queryClient);
    };
  }, [queryClient]);
}
