// GET /collections/:id: the whole collection with its rows. Persisted (meta.persist), so a
// collection opened once browses offline and after a reload like history; the event stream keeps
// the same cache entry current while the page is open.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CollectionView } from '../../../../shared/collections/collection-types';
import { http } from '../../../lib/api';

/** Under `collections`, beside the list's keys; `detail` keeps the two apart. */
export const collectionQueryKey = (id: number) => ['collections', 'detail', id] as const;

export function fetchCollection(id: number, signal?: AbortSignal): Promise<CollectionView> {
  return http.get<CollectionView>('main', `/collections/${id}`, { signal });
}

/** While the stream is not connected (cut, or not offered), a moving collection is read again this often. */
export const POLL_MS = 5_000;

function moving(view: CollectionView | undefined): boolean {
  return view?.status === 'running' || view?.status === 'paused';
}

export function collectionQuery(id: number, poll: boolean) {
  return queryOptions({
    queryKey: collectionQueryKey(id),
    queryFn: ({ signal }) => fetchCollection(id, signal),
    meta: { persist: true },
    // The stream keeps it current; a refetch on focus would replace a fresher snapshot with the same.
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (poll && moving(query.state.data) ? POLL_MS : false),
  });
}

/** `poll`: the event stream is not live, so the view is read again on a timer while the collection moves. */
export function useCollection(id: number, poll: boolean) {
  return useQuery(collectionQuery(id, poll));
}
