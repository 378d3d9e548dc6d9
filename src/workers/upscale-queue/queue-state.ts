// What every part of the queue engine shares: the items in memory (each change written to the
// store), their source files, the requests running, the signed-in owner, and the injected clock,
// ids and timer.
import type { QueueEngineDeps } from './engine-deps';
import { applyPatch } from './item-transitions';
import { randomUuid } from '../../lib/random-uuid';
import { MAX_IN_FLIGHT, type QueueAuth, type QueueItem } from './protocol';
import type { SetTimer } from './wake-timer';

export class QueueState {
  readonly items = new Map<string, QueueItem>();
  /** Source files read once and kept: a retry sends the same Blob again. */
  readonly blobs = new Map<string, Blob>();
  /** One controller per running request, on the server or on this device. */
  readonly inFlight = new Map<string, AbortController>();
  auth: QueueAuth | null = null;
  /** The next item's place in the queue. */
  seq = 0;
  /** Reports a snapshot to the page; the engine sets it, as the snapshot includes the pause. */
  emit: () => void = () => {};
  readonly now: () => number;
  readonly newId: () => string;
  readonly setTimer: SetTimer;
  readonly random: () => number;
  readonly max: number;

  constructor(readonly deps: QueueEngineDeps) {
    this.now = deps.now ?? (() => Date.now());
    this.newId = deps.newId ?? (() => randomUuid());
    this.setTimer =
      deps.setTimer ??
      ((fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      });
    this.max = deps.maxInFlight ?? MAX_IN_FLIGHT;
    this.random = deps.random ?? Math.random;
  }

  /** Items in queue order. */
  sorted(): QueueItem[] {
    return [...this.items.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Every change is shown at once and then persisted, so a reload resumes from it. */
  async update(item: QueueItem, patch: Partial<QueueItem>): Promise<void> {
    applyPatch(item, patch, this.now());
    this.emit();
    await this.deps.store.putItem(item);
  }
}
