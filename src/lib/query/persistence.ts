// Persists the queries that ask for it (meta.persist) to IndexedDB under the signed-in user, and
// restores them before the first render. Buster = app build + user: another user's or another
// deploy's cache is never hydrated.
import type { QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import { APP_BUILD } from './app-version';
import { createIdbPersister, type IdbPersister } from './idb-persister';
import { PERSIST_MAX_AGE_MS } from './persist-max-age';

export { PERSIST_MAX_AGE_MS };

export function busterFor(userKey: string): string {
  return `${APP_BUILD}:${userKey}`;
}

export interface ActivePersistence {
  userKey: string;
  persister: IdbPersister;
  stop(): void;
}

export async function startQueryPersistence(
  queryClient: QueryClient,
  userKey: string,
): Promise<ActivePersistence> {
  const persister = createIdbPersister(userKey);
  const options = {
    queryClient,
    persister,
    buster: busterFor(userKey),
    maxAge: PERSIST_MAX_AGE_MS,
    dehydrateOptions: {
      // Data, not status: a failed refetch while offline turns the query to 'error' but its data
      // is exactly what the next offline start must show.
      shouldDehydrateQuery: (query: { meta?: Record<string, unknown>; state: { data: unknown } }) =>
        query.meta?.persist === true && query.state.data !== undefined,
    },
  };
  // Restore failures (damaged record, other buster, too old) remove the record and start empty.
  await persistQueryClientRestore(options);
  // Restored data shows at once but counts as stale: a page that mounts asks the server again.
  await queryClient.invalidateQueries({ refetchType: 'none' });
  const unsubscribe = persistQueryClientSubscribe(options);
  // A save still waiting for its throttle is written when the page is hidden or closed.
  const flushOnHide = () => {
    if (document.visibilityState === 'hidden') void persister.flush();
  };
  const flushNow = () => void persister.flush();
  document.addEventListener('visibilitychange', flushOnHide);
  window.addEventListener('pagehide', flushNow);
  return {
    userKey,
    persister,
    stop() {
      unsubscribe();
      persister.cancel();
      document.removeEventListener('visibilitychange', flushOnHide);
      window.removeEventListener('pagehide', flushNow);
    },
  };
}
