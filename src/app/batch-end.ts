// When does an upscale batch end, and how did it go? The queue only sends snapshots, and a small
// image can go from waiting to done between two of them, so the batch is every item seen open or
// settled during this page's life; it ends when none is open any more.
import type { QueueItem, QueueItemStatus, QueueSnapshot } from '../workers/upscale-queue/protocol';

const OPEN: ReadonlySet<QueueItemStatus> = new Set(['waiting', 'processing', 'interrupted']);

export interface BatchOutcome {
  completed: number;
  failed: number;
}

export interface BatchEndTracker {
  /** Feeds the next snapshot; answers the outcome when it ends a batch, else null. */
  next(snapshot: QueueSnapshot): BatchOutcome | null;
}

/** `since`: when this page started watching; items settled before it (a reload) are old news. */
export function createBatchEndTracker(since: number): BatchEndTracker {
  let batch = new Set<string>();
  const told = new Set<string>();
  const belongs = (item: QueueItem) =>
    OPEN.has(item.status) || (item.updatedAt >= since && !told.has(item.id));
  return {
    next(snapshot) {
      let stillOpen = false;
      for (const item of snapshot.items) {
        if (belongs(item)) batch.add(item.id);
        if (OPEN.has(item.status)) stillOpen = true;
      }
      if (stillOpen || batch.size === 0) return null;
      const outcome: BatchOutcome = { completed: 0, failed: 0 };
      for (const item of snapshot.items) {
        if (!batch.has(item.id)) continue;
        told.add(item.id);
        if (item.status === 'completed') outcome.completed += 1;
        if (item.status === 'failed') outcome.failed += 1;
      }
      batch = new Set();
      // A batch the user cancelled or removed entirely is no news.
      return outcome.completed + outcome.failed > 0 ? outcome : null;
    },
  };
}
