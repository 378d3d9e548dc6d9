// The offline outbox: mutations made without a connection are stored (in order, per user) and
// replayed later exactly once. Each item's id is its Idempotency-Key, so a replay that reaches the
// server twice (a crash between send and delete, two tabs) is still applied once. Only the
// signed-in user's items are ever sent, and the check is repeated before every send.
import type { OutboxRecord } from '../db/schema';

export interface OutboxStorage {
  add(record: OutboxRecord): Promise<OutboxRecord>;
  /** The user's items, oldest first. */
  list(userKey: string): Promise<OutboxRecord[]>;
  put(record: OutboxRecord): Promise<void>;
  remove(seq: number): Promise<void>;
}

/** How a failed send is treated: try again later (network, server down) or refused for good. */
export type FailureKind = 'retry' | 'refused';

export interface OutboxOptions {
  storage: OutboxStorage;
  /** Sends one item; rejects on failure. Receives the item's id as the idempotency key. */
  send(record: OutboxRecord): Promise<unknown>;
  classify(error: unknown): { kind: FailureKind; message: string };
  /** The user whose items may be sent right now (null when nobody is signed in). */
  currentUser(): string | null;
  newId?: () => string;
  now?: () => number;
}

export interface FlushReport {
  sent: OutboxRecord[];
  refused: OutboxRecord[];
  /** True when a retryable failure stopped the run; later items wait, to keep their order. */
  stopped: boolean;
}

export function createOutbox(options: OutboxOptions) {
  const { storage } = options;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const now = options.now ?? Date.now;
  const listeners = new Set<() => void>();
  const running = new Map<string, Promise<FlushReport>>();
  const changed = () => listeners.forEach((l) => l());

  async function run(userKey: string): Promise<FlushReport> {
    const report: FlushReport = { sent: [], refused: [], stopped: false };
    const items = (await storage.list(userKey)).filter((r) => r.state === 'pending');
    for (const item of items) {
      // The session may have changed while an earlier item was in flight.
      if (options.currentUser() !== userKey || item.userKey !== userKey) {
        report.stopped = true;
        break;
      }
      try {
        await options.send(item);
        await storage.remove(item.seq as number);
        report.sent.push(item);
      } catch (error) {
        const failure = options.classify(error);
        if (failure.kind === 'retry') {
          await storage.put({ ...item, attempts: item.attempts + 1 });
          report.stopped = true;
          break;
        }
        const refused: OutboxRecord = { ...item, state: 'refused', error: failure.message, attempts: item.attempts + 1 };
        await storage.put(refused);
        report.refused.push(refused);
      }
      changed();
    }
    return report;
  }

  /** Replays the user's pending items in order. A call during a run waits for it, then runs again. */
  function flush(userKey: string): Promise<FlushReport> {
    const current = running.get(userKey);
    if (current) return current.then(() => flush(userKey));
    const next = run(userKey).finally(() => running.delete(userKey));
    running.set(userKey, next);
    return next;
  }

  return {
    async enqueue(userKey: string, kind: string, payload: unknown): Promise<OutboxRecord> {
      const record = await storage.add({ id: newId(), userKey, kind, payload, createdAt: now(), state: 'pending', attempts: 0 });
      changed();
      return record;
    },
    list: (userKey: string) => storage.list(userKey),
    flush,
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
