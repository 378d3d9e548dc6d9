// A queue engine on an in-memory store with a hand-driven sender: each request waits until the
// test settles it, so the window, cancel and resume are observed step by step.
import type { QueueEngineDeps } from '../../../src/workers/upscale-queue/engine-deps';
import { QueueEngine } from '../../../src/workers/upscale-queue/queue-engine';
import { createMemoryQueueStore, type QueueStore } from '../../../src/workers/upscale-queue/queue-store';
import type {
  EnqueueEntry,
  QueueAuth,
  QueueSnapshot,
  UpscaleParams,
} from '../../../src/workers/upscale-queue/protocol';
import type { SendHooks, SendOutcome, SendRequest } from '../../../src/workers/upscale-queue/send-types';

export interface PendingSend {
  request: SendRequest;
  hooks: SendHooks;
  signal: AbortSignal;
  resolve(outcome: SendOutcome): void;
}

export const PARAMS: UpscaleParams = {
  modelName: 'up2x-conservative',
  scale: 2,
  tileMode: 0,
  cacheMode: 0,
  alpha: 1,
};
export const AUTH: QueueAuth = { token: 't1', baseUrl: 'http://x/upscale-api', owner: 'alice' };

export function entries(n: number): EnqueueEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    fileId: `f${i}`,
    name: `img-${i}.png`,
    type: 'image/png',
    size: 10,
    blob: new Blob([`img${i}`], { type: 'image/png' }),
  }));
}

export function createHarness(store: QueueStore = createMemoryQueueStore(), extra: Partial<QueueEngineDeps> = {}) {
  const pending: PendingSend[] = [];
  const sent: SendRequest[] = [];
  // A hand-driven clock: timers fire when the test moves time on, so retry delays are exact.
  let time = 1_000_000;
  const timers: { fn: () => void; at: number }[] = [];
  const takeDue = (until: number) => {
    const due = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at);
    for (const t of due) timers.splice(timers.indexOf(t), 1);
    return due;
  };
  let probeOk = false;
  let resendSafe = true;
  let probes = 0;
  let maxConcurrent = 0;
  let last: QueueSnapshot | null = null;
  let n = 0;
  const cancelledOnServer: string[] = [];
  let cancelOnServer: (key: string) => Promise<void> = async () => {};
  const engine = new QueueEngine({
    store,
    newId: () => `id-${++n}`,
    now: () => time,
    // The nominal delays of the retry policy, without jitter.
    random: () => 0.5,
    send: (request, hooks, signal) =>
      new Promise<SendOutcome>((resolve) => {
        sent.push(request);
        const p: PendingSend = { request, hooks, signal, resolve };
        pending.push(p);
        maxConcurrent = Math.max(maxConcurrent, pending.length);
        const settle = (o: SendOutcome) => {
          pending.splice(pending.indexOf(p), 1);
          resolve(o);
        };
        p.resolve = settle;
        signal.addEventListener('abort', () => settle({ kind: 'aborted' }));
      }),
    probe: async () => {
      probes += 1;
      return { reachable: probeOk, resendSafe };
    },
    cancelOnServer: (key) => {
      cancelledOnServer.push(key);
      return cancelOnServer(key);
    },
    onSnapshot: (s) => {
      last = s;
    },
    ...extra,
    setTimer: (fn, ms) => {
      const timer = { fn, at: time + ms };
      timers.push(timer);
      return () => {
        const i = timers.indexOf(timer);
        if (i >= 0) timers.splice(i, 1);
      };
    },
  });
  return {
    engine,
    store,
    pending,
    sent,
    get maxConcurrent() {
      return maxConcurrent;
    },
    get snapshot() {
      return last ?? engine.snapshot();
    },
    /** Idempotency keys the engine asked the service to stop, in order. */
    cancelledOnServer,
    /** How the service's cancel call behaves (default: answers at once). */
    setCancelOnServer(fn: (key: string) => Promise<void>) {
      cancelOnServer = fn;
    },
    setProbe(ok: boolean) {
      probeOk = ok;
    },
    /** Whether the probed server says it replays a resend with the same Idempotency-Key. */
    setResendSafe(safe: boolean) {
      resendSafe = safe;
    },
    get probes() {
      return probes;
    },
    get now() {
      return time;
    },
    /** Runs every timer scheduled now once, moving the clock to the latest of them. */
    async fireTimers() {
      const due = timers.splice(0);
      for (const t of due) time = Math.max(time, t.at);
      for (const t of due) t.fn();
      await flush();
    },
    /** Moves the clock on by `ms`, firing every timer that falls due on the way, in order. */
    async advance(ms: number) {
      const until = time + ms;
      for (let round = 0; round < 1000; round++) {
        const due = takeDue(until);
        if (due.length === 0) break;
        for (const t of due) {
          time = Math.max(time, t.at);
          t.fn();
          await flush();
        }
      }
      time = until;
      await flush();
    },
    /** Answers every request with success, letting retry delays and probes run, until nothing is left. */
    async completeAll() {
      for (let step = 0; step < 1000; step++) {
        if (pending.length > 0) pending[0]!.resolve(ok());
        else if (timers.length > 0) await this.fireTimers();
        else break;
        await flush();
      }
    },
    statusOf(id: string) {
      return engine.snapshot().items.find((i) => i.id === id)?.status;
    },
  };
}

export function ok(name = 'out.png'): SendOutcome {
  return { kind: 'ok', url: `http://x/upscale-api/files/${name}`, filename: name, message: 'done' };
}

/** Lets every pending promise chain run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}
