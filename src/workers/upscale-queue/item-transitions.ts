// How one queue item changes state, apart from any I/O: a new item, an item a closed page left
// running, an item sent again, and the in-place patch every change goes through. The engine keeps
// one object per item (running requests compare against it), so patches mutate it.
import type { EnqueueEntry, QueueItem, QueueItemStatus, UpscaleParams } from './protocol';

/** Not finished yet: cancel applies, and the service may still hold the request. */
export const UNFINISHED: readonly QueueItemStatus[] = ['waiting', 'processing', 'interrupted'];
/** The person can send these again. */
export const RETRYABLE: readonly QueueItemStatus[] = ['failed', 'cancelled', 'interrupted'];
/** Done one way or another: "clear finished" removes them. */
export const FINISHED: readonly QueueItemStatus[] = ['completed', 'cancelled', 'failed'];

export interface NewItemFacts {
  entry: EnqueueEntry;
  params: UpscaleParams;
  owner: string;
  id: string;
  idempotencyKey: string;
  seq: number;
  now: number;
}

export function newQueueItem({ entry, params, owner, id, idempotencyKey, seq, now }: NewItemFacts): QueueItem {
  return {
    id,
    userKey: owner,
    fileId: entry.fileId,
    fileName: entry.name,
    fileType: entry.type,
    fileSize: entry.size,
    params: { ...params },
    status: 'waiting',
    progress: 0,
    idempotencyKey,
    bytesSent: false,
    attempts: 0,
    seq,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A request that was running when the page closed: if any byte left the device the server may
 * have it, so it is interrupted until the server says a resend is safe; otherwise it simply waits.
 */
export function reloadedRequest(item: QueueItem, now: number): QueueItem {
  return { ...item, status: item.bytesSent ? 'interrupted' : 'waiting', progress: 0, updatedAt: now };
}

/**
 * Sends an item again. An interrupted request keeps its key, so a server that honours it replays
 * instead of redoing; a failed or cancelled one is a new request (never joining the job the user
 * cancelled), and `newKey` is asked only then.
 */
export function retryPatch(item: QueueItem, newKey: () => string): Partial<QueueItem> {
  const keep = item.status === 'interrupted';
  return {
    status: 'waiting',
    progress: 0,
    error: undefined,
    bytesSent: false,
    idempotencyKey: keep ? item.idempotencyKey : newKey(),
    keySent: keep ? item.keySent : undefined,
    retry: undefined,
  };
}

/** Applies a patch in place; a key set to undefined is removed, so the stored copy does not keep it. */
export function applyPatch(item: QueueItem, patch: Partial<QueueItem>, now: number): void {
  Object.assign(item, patch, { updatedAt: now });
  for (const key of Object.keys(patch) as (keyof QueueItem)[]) {
    if (patch[key] === undefined) delete item[key];
  }
}

/** A reported percentage as the item shows it: whole, at most 100, and never going back. */
export function raisedProgress(current: number, reported: number): number {
  return Math.max(current, Math.min(100, Math.round(reported)));
}

/** How much of the item's file the server has, as the item shows it (0 with no resumable upload). */
export function acceptedPercent(item: Pick<QueueItem, 'upload' | 'fileSize'>): number {
  if (!item.upload) return 0;
  if (item.upload.complete) return 100;
  return item.fileSize > 0 ? raisedProgress(0, (item.upload.offset / item.fileSize) * 100) : 0;
}
