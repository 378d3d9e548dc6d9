// The device side of the queue: items the person added wait here (with their files, kept in
// IndexedDB) until a slot is free. At most `limit` items are in flight at once, counting the ones
// being sent and the ones the server is still running, so a stack of twenty does not flood the
// enhancer; the oldest waiting item goes first.
import type { WorkshopConfig, WorkshopType } from './workshop-item';

export const QUEUE_CONCURRENCY = 2;

export type EntryState = 'waiting' | 'sending' | 'failed';

export interface QueueFile {
  name: string;
  type: string;
  blob: Blob;
}

export interface QueueEntry {
  id: string;
  userKey: string;
  type: WorkshopType;
  text: string;
  files: QueueFile[];
  config: WorkshopConfig;
  /** The language at the add: every attempt asks for the same answer, as its key's replay requires. */
  language?: string;
  state: EntryState;
  /** Why sending failed, in the person's language (the server's message or ours). */
  error?: string;
  /** Whether sending again may help (network, busy server) or the input must change. */
  retryable?: boolean;
  /** While sending: the next attempt after a transient failure (the shared retry policy's wait). */
  retryAt?: number;
  createdAt: number;
}

/** Entries to start now: the oldest waiting ones that fit under the limit. */
export function entriesToStart(entries: readonly QueueEntry[], runningOnServer: number, limit = QUEUE_CONCURRENCY): QueueEntry[] {
  const sending = entries.filter((e) => e.state === 'sending').length;
  const free = Math.max(0, limit - sending - runningOnServer);
  if (free === 0) return [];
  return entries
    .filter((e) => e.state === 'waiting')
    .sort((a, b) => a.createdAt - b.createdAt)
    .slice(0, free);
}

/** After a reload nothing is being sent any more: an entry caught mid-send waits again. */
export function afterReload(entries: readonly QueueEntry[]): QueueEntry[] {
  return entries.map((e) => (e.state === 'sending' ? { ...e, state: 'waiting' as const, retryAt: undefined } : e));
}

/** Position in the waiting line (1-based), or null when the entry is not waiting. */
export function waitingPosition(entries: readonly QueueEntry[], id: string): number | null {
  const waiting = entries.filter((e) => e.state === 'waiting').sort((a, b) => a.createdAt - b.createdAt);
  const index = waiting.findIndex((e) => e.id === id);
  return index < 0 ? null : index + 1;
}
