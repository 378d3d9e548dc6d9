// The page's view of the collections kept on the device until the server has them (pending-runner):
// their progress, and sending them once the page knows whose they are (after a reload too).
import { useEffect, useSyncExternalStore } from 'react';
import { wipeOtherPendingCollections } from '../../../lib/db/collection-draft-store';
import { getPendingSnapshot, resumePending, subscribePending } from './pending-runner';

export function usePendingCollections(userKey: string | null) {
  const pending = useSyncExternalStore(subscribePending, getPendingSnapshot, getPendingSnapshot);
  useEffect(() => {
    if (!userKey) return;
    let alive = true;
    // Another account's kept collections on a shared tablet are not this person's to send.
    void wipeOtherPendingCollections(userKey)
      .catch(() => undefined)
      .then(() => {
        if (alive) resumePending(userKey);
      });
    return () => {
      alive = false;
    };
  }, [userKey]);
  return pending;
}
