// Follows a running or paused collection's event stream while its page is open: every event lands
// in the (persisted) query data, so the grid, the counts and an offline reload all show the same.
// A cut stream is followed again after a growing, jittered wait (the app's backoff), at once when
// the device comes back online, and the server's next snapshot replaces whatever was missed.
// A refused token is refreshed once before the next try; a collection that is gone stops it.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { CollectionEvent, CollectionView } from '../../../../shared/collections/collection-types';
import { isApiError } from '../../../lib/api';
import { refreshSession } from '../../../lib/api/refresh-session';
import { onReconnect } from '../../../lib/offline/online-status';
import { backoffDelay, type RetryPolicy } from '../../../lib/retry/retry-policy';
import { followCollectionEvents } from '../api/collection-events';
import { collectionQueryKey } from '../api/collection-query';
import { applyCollectionEvent, applyProgressEvent, type StageProgress } from '../model/collection-events';

/** A read stream is cheap to reopen and the person is watching: tries never stop, waits stay short. */
const RECONNECT_POLICY: RetryPolicy = { firstDelayMs: 1_000, maxDelayMs: 15_000, budgetMs: Infinity, jitter: 0.5 };

export type StreamState = 'connecting' | 'live' | 'waiting' | 'idle';

export interface CollectionEventsState {
  stream: StreamState;
  progress: ReadonlyMap<number, StageProgress>;
}

const NO_PROGRESS: ReadonlyMap<number, StageProgress> = new Map();

export function useCollectionEvents(id: number, follow: boolean): CollectionEventsState {
  const queryClient = useQueryClient();
  const [stream, setStream] = useState<StreamState>('idle');
  const [progress, setProgress] = useState(NO_PROGRESS);

  useEffect(() => {
    if (!follow) {
      setStream('idle');
      return;
    }
    const stop = new AbortController();
    let failures = 0;
    let wake: (() => void) | null = null;
    const unsubscribe = onReconnect(() => wake?.());

    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = null;
          stop.signal.removeEventListener('abort', done);
          resolve();
        }
        wake = done;
        stop.signal.addEventListener('abort', done, { once: true });
      });

    const onEvent = (event: CollectionEvent) => {
      if (event.type === 'snapshot') {
        failures = 0;
        setStream('live');
      }
      queryClient.setQueryData<CollectionView>(collectionQueryKey(id), (view) => applyCollectionEvent(view, event));
      setProgress((current) => applyProgressEvent(current, event));
    };

    void (async () => {
      while (!stop.signal.aborted) {
        setStream('connecting');
        try {
          const outcome = await followCollectionEvents(id, onEvent, stop.signal);
          // The end event: the collection is completed or cancelled; nothing more will come.
          if (outcome === 'completed' || outcome === 'cancelled') break;
        } catch (error) {
          if (isApiError(error) && error.status === 404) break;
          // A refresh that got no answer is a lost connection: wait and follow again.
          if (isApiError(error) && error.status === 401 && !(await refreshSession().catch(() => true))) break;
        }
        if (stop.signal.aborted) break;
        failures += 1;
        setStream('waiting');
        await pause(backoffDelay(failures, { policy: RECONNECT_POLICY }));
      }
      if (!stop.signal.aborted) setStream('idle');
    })();

    return () => {
      stop.abort();
      unsubscribe();
    };
  }, [id, follow, queryClient]);

  return { stream, progress };
}
