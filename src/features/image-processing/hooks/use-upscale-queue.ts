// The queue as the page and the shell indicator see it: a snapshot pushed by the worker plus the
// RPCs. Calling an action starts the worker if it is not running yet.
import { startTransition, useEffect, useMemo, useState } from 'react';
import { getQueueSnapshot, subscribeQueue, upscaleQueue } from '../../../lib/workers/upscale-queue-bridge';
import type { EnqueueEntry, QueueSnapshot, UpscaleParams } from '../../../workers/upscale-queue/protocol';
import { countQueue, type QueueCounts } from '../model/queue-counts';

export type { QueueCounts };

export interface QueueActions {
  enqueue(entries: EnqueueEntry[], params: UpscaleParams): Promise<string[]>;
  cancel(id: string): Promise<void>;
  cancelAll(): Promise<void>;
  retry(id: string): Promise<void>;
  retryAllFailed(): Promise<void>;
  remove(id: string): Promise<void>;
  clearFinished(): Promise<void>;
}

export const queueActions: QueueActions = {
  enqueue: async (entries, params) => (await upscaleQueue()).enqueue(entries, params),
  cancel: async (id) => (await upscaleQueue()).cancel(id),
  cancelAll: async () => (await upscaleQueue()).cancelAll(),
  retry: async (id) => (await upscaleQueue()).retry(id),
  retryAllFailed: async () => (await upscaleQueue()).retryAllFailed(),
  remove: async (id) => (await upscaleQueue()).remove(id),
  clearFinished: async () => (await upscaleQueue()).clearFinished(),
};

export function useUpscaleQueue(): { snapshot: QueueSnapshot; counts: QueueCounts; actions: QueueActions } {
  const [snapshot, setSnapshot] = useState(getQueueSnapshot);
  useEffect(() => {
    // A batch sends a snapshot for every change of every item. Rendered as a transition, React
    // works through them in slices of a few milliseconds that input can interrupt; a store hook
    // (useSyncExternalStore) would render each in one piece, a long task on a slow tablet.
    const follow = () => startTransition(() => setSnapshot(getQueueSnapshot()));
    follow(); // it may have changed between the first render and this subscription
    return subscribeQueue(follow);
  }, []);
  const counts = useMemo(() => countQueue(snapshot), [snapshot]);
  return { snapshot, counts, actions: queueActions };
}
