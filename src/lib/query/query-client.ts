// The one QueryClient. offlineFirst: a query with cached data renders it and tries the network
// once instead of pausing; network failures mark the server unreachable (offline indicator).
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api';
import { reportReachable, reportUnreachable } from '../offline/online-status';
import { PERSIST_MAX_AGE_MS } from './persist-max-age';
import './query-meta';

function noteNetwork(error: unknown): void {
  if (isApiError(error) && error.kind === 'network') reportUnreachable();
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: noteNetwork, onSuccess: () => reportReachable() }),
    mutationCache: new MutationCache({ onError: noteNetwork }),
    defaultOptions: {
      queries: {
        networkMode: 'offlineFirst',
        // Kept in memory at least as long as on disk, or restored data would be dropped at once.
        gcTime: PERSIST_MAX_AGE_MS,
        staleTime: 30_000,
        retry: (count, error) => count < 2 && !(isApiError(error) && (error.kind === 'network' || error.kind === 'business' || (error.status ?? 0) < 500)),
        refetchOnWindowFocus: true,
      },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}

export const queryClient = createQueryClient();
