// The offline outbox: mutations made without a connection are stored (in order, per user) and
// replayed later exactly once. Each item's id is its Idempotency-Key, so a replay that reaches the
// server twice (a crash between send and delete, two tabs) is still applied once. Only the
// signed-in user's items are ever sent, and the check is repeated before every send.
import type { OutboxRecord } from '../db/schema';
import { randomUuid } from '../random-uuid';

export interface OutboxStorage {
  add(record: OutboxRecord): Promise<OutboxRecord>;
  /** The user's items, oldest first. */
  list(userKey: string): Promise<OutboxRecord[]>;
  put(record: OutboxRecord): Promise<void>;
  remove(seq: number): Promise<void>;
}

/** How a failed send is treated: try again later (network, server down) or refused for good. */
export type FailureKind = 'retry' | 'refused';

export interface FailureVerdict {
  kind: FailureKind;
  message: string;
  /** The server asked us to wait this long before trying again (Retry-After). */
  retryAfterMs?: number;
}

export interface OutboxOptions {
  storage: OutboxStorage;
  /**
   * Sends one item; rejects on failure. The item's id is its idempotency key; the signal aborts
   * the request when the outbox is halted (logout).
   */
  send(record: OutboxRecord, signal: AbortSignal): Promise<unknown>;
  classify(error: unknown): FailureVerdict;
  /** The user whose items may be sent right now (null when nobody is signed in). */
  currentUser(): string | null;
  newId?: () => string;
  now?: () => number;
}

export interface FlushReport {
  sent: OutboxRecord[];
  refused: OutboxRecord[];
  /** True when the run stopped early; later items wait, to keep their order. */
  stopped: boolean;
  /** Why it stopped when a retryable failure did it (server down, overloaded, no answer). */
  failure?: Omit<FailureVerdict, 'kind'>;
}

export function createOutbox(options: OutboxOptions) {
  const { storage } = options;
  const newId = options.newId ?? (() => randomUuid());
  const now = options.now ?? Date.now;
  const listeners = new Set<() => void>();
  const running = new Map<string, Promise<FlushReport>>();
  const changed = () => listeners.forEach((l) => l());
  // halt() ends the current generation: runs of an older one write nothing more, and nothing
  // runs until resume() (the next sign-in).
  let generation = 0;
  let halted = false;
  let abort = new AbortController();
  const stoppedReport = (): FlushReport => ({ sent: [], refused: [], stopped: true });

  async function run(userKey: string): Promise<FlushReport> {
    const mine = generation;
    const { signal } = abort;
    const superseded = () => generation !== mine;
    const report: FlushReport = { sent: [], refused: [], stopped: false };
    const items = (await storage.list(userKey)).filter((r) => r.state === 'pending');
    for (const item of items) {
      // The session may have changed (or ended) while an earlier item was in flight.
      if (superseded() || options.currentUser() !== userKey || item.userKey !== userKey) {
        report.stopped = true;
        break;
      }
      try {
        await options.send(item, signal);
        // Deleting is harmless even after a halt: the wipe removes it anyway.
        await storage.remove(item.seq as number);
        report.sent.push(item);
      } catch (error) {
        // Logged out meanwhile: writing the item back would bring it back after the wipe.
        if (superseded()) {
          report.stopped = true;
          break;
        }
        const { kind, ...failure } = options.classify(error);
        if (kind === 'retry') {
          await storage.put({ ...item, attempts: item.attempts + 1 });
          report.stopped = true;
          report.failure = failure;
          break;
        }
        const refused: OutboxRecord = {
          ...item,
          state: 'refused',
          error: failure.message,
          attempts: item.attempts + 1,
        };
        await storage.put(refused);
        report.refused.push(refused);
      }
      changed();
    }
    return report;
  }

  /** Replays the user's pending items in order. A call during a run waits for it, then runs again. */
  function flush(userKey: string): Promise<FlushReport> {
    if (halted) return Promise.resolve(stoppedReport());
    const current = running.get(userKey);
    if (current) return current.then(() => flush(userKey));
    const next = run(userKey).finally(() => running.delete(userKey));
    running.set(userKey, next);
    return next;
  }

  return {
    async enqueue(userKey: string, kind: string, payload: unknown): Promise<OutboxRecord> {
      const record = await storage.add({
        id: newId(),
        userKey,
        kind,
        payload,
        createdAt: now(),
        state: 'pending',
        attempts: 0,
      });
      changed();
      return record;
    },
    list: (userKey: string) => storage.list(userKey),
    flush,
    /**
     * Logout: aborts the request in flight, lets running flushes end without writing back, and
     * resolves once they have. Until resume(), flush() sends nothing.
     */
    async halt(): Promise<void> {
      halted = true;
      generation += 1;
      abort.abort();
      abort = new AbortController();
      await Promise.allSettled([...running.values()]);
    },
    /** A user signed in (again): their queue may be replayed. */
    resume(): void {
      halted = false;
    },
    async discard(seq: number): Promise<void> {
      await storage.remove(seq);
      changed();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
