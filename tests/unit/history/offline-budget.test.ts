import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { pruneHistoryDetails, trimHistoryLists } from '../../../src/features/history/hooks/use-offline-budget';
import { OFFLINE_DETAILS, OFFLINE_LIST_ITEMS, PAGE_SIZE } from '../../../src/features/history/model/offline-budget';
import { queryKeys } from '../../../src/lib/query/query-keys';

const pageOf = (start: number) => ({
  items: Array.from({ length: PAGE_SIZE }, (_, i) => ({ id: start - i, status: 'completed' })),
  next_cursor: String(start - PAGE_SIZE + 1),
  has_more: true,
});

describe('history offline budget on the query cache', () => {
  it('cuts a list to its newest whole pages within the item budget, keeping when it was saved', () => {
    const client = new QueryClient();
    const pages = Array.from({ length: 8 }, (_, p) => pageOf(1000 - p * PAGE_SIZE));
    client.setQueryData(queryKeys.history.list('images'), { pages, pageParams: pages.map((_, i) => (i ? String(i) : null)) }, { updatedAt: 1234 });
    trimHistoryLists(client);
    const kept = client.getQueryData<{ pages: unknown[] }>(queryKeys.history.list('images'));
    expect(kept?.pages).toHaveLength(Math.floor(OFFLINE_LIST_ITEMS / PAGE_SIZE));
    expect(client.getQueryState(queryKeys.history.list('images'))?.dataUpdatedAt).toBe(1234);
  });

  it('drops the least recently loaded details beyond the budget', () => {
    const client = new QueryClient();
    const total = OFFLINE_DETAILS + 3;
    for (let id = 1; id <= total; id += 1)
      client.setQueryData(queryKeys.history.detail(id % 2 ? 'image' : 'video', id), { id }, { updatedAt: 10_000 + id });
    pruneHistoryDetails(client);
    const left = client.getQueryCache().findAll({ queryKey: queryKeys.history.details });
    expect(left).toHaveLength(OFFLINE_DETAILS);
    const ids = left.map((q) => q.queryKey[3] as number).sort((a, b) => a - b);
    expect(ids[0]).toBe(4);
    expect(ids.at(-1)).toBe(total);
  });
});
