import { describe, expect, it } from 'vitest';
import {
  applyItemUpdate,
  applyProgress,
  entriesOverBudget,
  hasRunning,
  mergePages,
  trimToBudget,
  type PagedData,
} from '../../../src/features/history/model/history-pages';
import type { HistoryPage, HistoryStatus } from '../../../src/features/history/model/history-types';

interface Item {
  id: number;
  status: HistoryStatus;
  progress?: number;
}

const page = (ids: number[], more = true, status: HistoryStatus = 'completed'): HistoryPage<Item> => ({
  items: ids.map((id) => ({ id, status })),
  next_cursor: more ? String(ids.at(-1)) : null,
  has_more: more,
});

const data = (...pages: HistoryPage<Item>[]): PagedData<Item> => ({
  pages,
  pageParams: pages.map((_, i) => (i === 0 ? null : String(i))),
});

describe('mergePages', () => {
  it('joins load-more pages newest first', () => {
    expect(mergePages([page([9, 8, 7]), page([6, 5, 4]), page([3], false)]).map((i) => i.id)).toEqual([9, 8, 7, 6, 5, 4, 3]);
  });

  it('shows an item once when a page repeats it (a row added while scrolling)', () => {
    const merged = mergePages([page([9, 8, 7]), page([7, 6, 5])]);
    expect(merged.map((i) => i.id)).toEqual([9, 8, 7, 6, 5]);
  });

  it('keeps the first copy of a repeated item', () => {
    const first: HistoryPage<Item> = { items: [{ id: 3, status: 'generating' }], next_cursor: '3', has_more: true };
    const second: HistoryPage<Item> = { items: [{ id: 3, status: 'completed' }], next_cursor: null, has_more: false };
    expect(mergePages([first, second])).toEqual([{ id: 3, status: 'generating' }]);
  });

  it('is empty for no pages', () => {
    expect(mergePages([])).toEqual([]);
  });
});

describe('status updates', () => {
  it('tells whether anything is still pending or generating', () => {
    expect(hasRunning([{ id: 1, status: 'completed' }, { id: 2, status: 'failed' }])).toBe(false);
    expect(hasRunning([{ id: 1, status: 'completed' }, { id: 2, status: 'pending' }])).toBe(true);
    expect(hasRunning([{ id: 2, status: 'generating' }])).toBe(true);
  });

  it('replaces an item in place, on whichever page it is', () => {
    const before = data(page([9, 8], true, 'generating'), page([7, 6], false, 'generating'));
    const after = applyItemUpdate(before, { id: 6, status: 'completed', progress: 100 });
    expect(after.pages[1]?.items[1]).toEqual({ id: 6, status: 'completed', progress: 100 });
    expect(after.pages[0]).toEqual(before.pages[0]);
    expect(before.pages[1]?.items[1]?.status).toBe('generating');
  });

  it('puts a new item (a retry) on top of the first page', () => {
    const after = applyItemUpdate(data(page([9, 8])), { id: 10, status: 'pending' });
    expect(after.pages[0]?.items.map((i) => i.id)).toEqual([10, 9, 8]);
  });

  it('leaves empty data alone', () => {
    expect(applyItemUpdate(data(), { id: 1, status: 'pending' })).toEqual(data());
  });
});

describe('offline budget', () => {
  it('keeps whole newest pages up to the item budget', () => {
    const full = data(page([12, 11, 10, 9]), page([8, 7, 6, 5]), page([4, 3, 2, 1], false));
    const kept = trimToBudget(full, 8);
    expect(kept.pages).toHaveLength(2);
    expect(kept.pageParams).toEqual([null, '1']);
    expect(trimToBudget(full, 7).pages).toHaveLength(1);
  });

  it('always keeps the first page, and returns the same data when within budget', () => {
    const full = data(page([5, 4, 3, 2, 1]));
    expect(trimToBudget(full, 2)).toBe(full);
    const two = data(page([4, 3]), page([2, 1]));
    expect(trimToBudget(two, 10)).toBe(two);
  });

  it('drops the least recently used entries beyond the budget', () => {
    const entries = [
      { key: 'a', usedAt: 30 },
      { key: 'b', usedAt: 10 },
      { key: 'c', usedAt: 20 },
      { key: 'd', usedAt: 40 },
    ];
    expect(entriesOverBudget(entries, 2)).toEqual(['b', 'c']);
    expect(entriesOverBudget(entries, 4)).toEqual([]);
    expect(entriesOverBudget(entries, 0)).toEqual(['b', 'c', 'a', 'd']);
  });
});

describe('progress events', () => {
  const running = (): PagedData<Item> => ({
    pages: [{ items: [{ id: 2, status: 'generating', progress: 40 }, { id: 1, status: 'completed', progress: 100 }], next_cursor: null, has_more: false }],
    pageParams: [null],
  });

  it('moves a running item on, never back', () => {
    const after = applyProgress(running(), { id: 2, status: 'generating', progress: 60 });
    expect(after.pages[0]?.items[0]).toEqual({ id: 2, status: 'generating', progress: 60 });
    const late = applyProgress(after, { id: 2, status: 'generating', progress: 10 });
    expect(late.pages[0]?.items[0]?.progress).toBe(60);
  });

  it('leaves finished and unknown items alone (same data back)', () => {
    const data = running();
    expect(applyProgress(data, { id: 1, status: 'generating', progress: 5 })).toBe(data);
    expect(applyProgress(data, { id: 99, status: 'generating', progress: 5 })).toBe(data);
  });
});
