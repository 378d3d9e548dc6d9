// Load-more pages of a history list as one list: newest first, each item once (a row added while
// the designer scrolls never shows twice), status changes applied in place, and the budget of
// what is kept on the device for offline browsing.
import type { HistoryPage, HistoryStatus } from './history-types';

interface Identified {
  id: number;
  status: HistoryStatus;
}

export interface PagedData<T> {
  pages: HistoryPage<T>[];
  pageParams: (string | null)[];
}

/** The pages' items in order, newest first, a repeated id kept where it appeared first. */
export function mergePages<T extends Identified>(pages: readonly HistoryPage<T>[]): T[] {
  const seen = new Set<number>();
  const items: T[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return items.sort((a, b) => b.id - a.id);
}

export function isRunning(status: HistoryStatus): boolean {
  return status === 'pending' || status === 'generating';
}

export function hasRunning(items: readonly Identified[]): boolean {
  return items.some((item) => isRunning(item.status));
}

/**
 * Applies one item's new state (a progress event, a finished video, a retry's new row) to the
 * loaded pages: replaced where it is, or put on top of the first page when it is new.
 */
export function applyItemUpdate<T extends Identified>(data: PagedData<T>, update: T): PagedData<T> {
  let found = false;
  const pages = data.pages.map((page) => ({
    ...page,
    items: page.items.map((item) => {
      if (item.id !== update.id) return item;
      found = true;
      return { ...item, ...update };
    }),
  }));
  if (!found && pages[0]) pages[0] = { ...pages[0], items: [update, ...pages[0].items] };
  return { ...data, pages };
}

/**
 * What the device keeps of a list for offline browsing: the newest pages up to `maxItems` items
 * (whole pages, at least the first). The rest is loaded again when the designer scrolls online.
 */
export function trimToBudget<T>(data: PagedData<T>, maxItems: number): PagedData<T> {
  let count = 0;
  let keep = 0;
  for (const page of data.pages) {
    if (keep > 0 && count + page.items.length > maxItems) break;
    count += page.items.length;
    keep += 1;
  }
  if (keep >= data.pages.length) return data;
  return { pages: data.pages.slice(0, keep), pageParams: data.pageParams.slice(0, keep) };
}

export interface CachedEntry<K> {
  key: K;
  /** When it was last opened (or loaded). */
  usedAt: number;
}

/** Least recently used first out: the entries beyond `max` to drop, oldest first. */
export function entriesOverBudget<K>(entries: readonly CachedEntry<K>[], max: number): K[] {
  if (entries.length <= max) return [];
  return [...entries]
    .sort((a, b) => a.usedAt - b.usedAt)
    .slice(0, entries.length - max)
    .map((e) => e.key);
}

export interface ProgressUpdate {
  id: number;
  status: HistoryStatus;
  progress?: number;
}

/** A progress event: the item's status and percent (never lower than shown), where it is loaded. */
export function applyProgress<T extends Identified & { progress?: number }>(data: PagedData<T>, update: ProgressUpdate): PagedData<T> {
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.items.some((item) => item.id === update.id)) return page;
    return {
      ...page,
      items: page.items.map((item) => {
        if (item.id !== update.id || !isRunning(item.status)) return item;
        changed = true;
        const progress = Math.max(item.progress ?? 0, update.progress ?? 0);
        return { ...item, status: update.status, progress };
      }),
    };
  });
  return changed ? { ...data, pages } : data;
}
