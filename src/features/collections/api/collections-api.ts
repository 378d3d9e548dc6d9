// The collection calls the list and the import make: GET /collections (the person's collections,
// newest first, kept for offline reading) and POST /collections (start one; a resend with the same
// client_collection_id answers the same collection).
import { useQuery } from '@tanstack/react-query';
import type {
  CollectionRef,
  CollectionSummary,
  CreateCollection,
} from '../../../../shared/collections/collection-types';
import { http } from '../../../lib/api';
import { queryKeys } from '../../../lib/query/query-keys';

export function fetchCollections(signal?: AbortSignal): Promise<{ items: CollectionSummary[] }> {
  return http.get<{ items: CollectionSummary[] }>('main', '/collections', { signal });
}

export function useCollections() {
  return useQuery({
    queryKey: queryKeys.collections.list(),
    queryFn: ({ signal }) => fetchCollections(signal),
    meta: { persist: true },
  });
}

export function createCollection(body: CreateCollection, signal?: AbortSignal): Promise<CollectionRef> {
  return http.post<CollectionRef>('main', '/collections', body, { signal });
}
