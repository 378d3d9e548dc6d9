// The grid's filter by state, kept in the address (?show=failed) so a reload or a shared link
// opens the same rows.
import type { CollectionItemView } from '../../../../shared/collections/collection-types';

export const GRID_FILTERS = ['all', 'failed', 'review', 'done'] as const;
export type GridFilter = (typeof GRID_FILTERS)[number];

export const FILTER_PARAM = 'show';

export function parseFilter(value: string | null): GridFilter {
  return (GRID_FILTERS as readonly string[]).includes(value ?? '') ? (value as GridFilter) : 'all';
}

export function matchesFilter(item: Pick<CollectionItemView, 'status'>, filter: GridFilter): boolean {
  return filter === 'all' || item.status === filter;
}
