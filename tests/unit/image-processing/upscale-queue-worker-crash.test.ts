// @vitest-environment node
// A queue worker that dies: calls waiting on it settle instead of hanging, and a fresh worker
// configured again picks the batch up from the persisted store and resends what was cut short
// with the same keys. Stand-in workers on a MessageChannel serve the real queue engine with
// Comlink, so the wire protocol is the browser's.
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerGoneError } from '../../../src/lib/workers/worker-handle';
import { createWorkerHandle, type SpawnedWorker } from '../../../src/lib/workers/worker-handle';
import type { QueueAuth, UpscaleQueueApi } from '../../../src/workers/upscale-queue/protocol';
import { createMemoryQueueStore } from '../../../src/workers/upscale-queue/queue-store';
import { AUTH, PARAMS, createHarness, entries, flush, ok } from './queue-harness';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

interface FakeWorker extends SpawnedWorker {
  terminated: boolean;
  /** What the browser does when the worker throws an uncaught error. */
  fail(message: string): Event;
}

function fakeWorker(api: object): FakeWorker {
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  Comlink.expose(api, channel.port2);
  const port = channel.port1;
  const errors = new EventTarget();
  const worker: FakeWorker = {
    terminated: false,
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer ?? []),
    addEventListener: (type, listener) =>
      type === 'error'
        ? errors.addEventListener(type, listener)
        : port.addEventListener(type as 'message', listener as (e: MessageEvent) => void),
    removeEventListener: (type, listener) =>
      type === 'error'
        ? errors.removeEventListener(type, listener)
        : port.removeEventListener(type as 'message', listener as (e: MessageEvent) => void),
    start: () => port.start(),
    terminate: () => {
      worker.terminated = true;
      channel.port1.close();
      channel.port2.close();
    },
    fail(message) {
      const event = Object.assign(new Event('error', { cancelable: true }), { message });
      errors.dispatchEvent(event);
      return event;
    },
  };
  return worker;
}

interface SlowApi {
  never(): Promise<string>;
  echo(v: string): Promise<string>;
}

const slowApi: SlowApi = { never: () => new Promise<string>(() => {}), echo: async (v) => v };

describe('a crashed worker', () => {
  it('rejects the calls waiting on it, reports the crash, and the next call starts a fresh worker', async () => {
    const spawned: FakeWorker[] = [];
    const crashes: WorkerGoneError[] = [];
    const handle = createWorkerHandle<SlowApi>(
      () => {
        const w = fakeWorker(slowApi);
        spawned.push(w);
        return w;
      },
      null,
      { onCrash: (e) => crashes.push(e) },
    );
    expect(await handle.get().echo('up')).toBe('up');
    const pending = handle.get().never();
    const event = spawned[0]!.fail('boom');

    await expect(pending).rejects.toMatchObject({ name: 'WorkerGoneError', crashed: true, message: 'boom' });
    expect(event.defaultPrevented).toBe(true);
    expect(spawned[0]!.terminated).toBe(true);
    expect(crashes).toHaveLength(1);

    expect(await handle.get().echo('again')).toBe('again');
    expect(spawned).toHaveLength(2);
    // A late error from the dead worker changes nothing.
    spawned[0]!.fail('late');
    expect(crashes).toHaveLength(1);
    expect(await handle.get().echo('still')).toBe('still');
  });

  it('settles calls waiting on a worker that is stopped on purpose', async () => {
    const handle = createWorkerHandle<SlowApi>(() => fakeWorker(slowApi), null);
    const pending = handle.get().never();
    handle.stop();
    await expect(pending).rejects.toMatchObject({ name: 'WorkerGoneError', crashed: false });
  });

  it('is started again and configured, resuming the batch from the store with the same keys', async () => {
    const files = new Map(entries(5).map((e) => [e.fileId, e.blob]));
    const store = createMemoryQueueStore(files);
    const engines: ReturnType<typeof createHarness>[] = [];
    const workers: FakeWorker[] = [];
    const handle = createWorkerHandle<Pick<UpscaleQueueApi, 'configure'>>(
      () => {
        const h = createHarness(store);
        h.setProbe(true);
        engines.push(h);
        const w = fakeWorker({ configure: (auth: QueueAuth) => h.engine.configure(auth) });
        workers.push(w);
        return w;
      },
      null,
      // What the bridge does: start a new worker and hand it the session again.
      { onCrash: () => void handle.get().configure(AUTH) },
    );
    await handle.get().configure(AUTH);
    const first = engines[0]!;
    await first.engine.enqueue(entries(5), PARAMS);
    await flush();
    for (const p of first.pending) p.hooks.onBytesSent();
    await flush();
    const keys = first.sent.map((r) => [r.fileName, r.idempotencyKey]);
    expect(keys).toHaveLength(3);

    // The worker dies with three requests out (the browser drops them with it).
    workers[0]!.fail('worker crashed');
    for (let i = 0; i < 5; i++) await flush();

    expect(engines).toHaveLength(2);
    const second = engines[1]!;
    expect(second.sent.map((r) => [r.fileName, r.idempotencyKey])).toEqual(keys);
    second.pending[0]!.resolve(ok());
    await flush();
    expect(second.sent.at(-1)?.fileName).toBe('img-3.png');
    expect(second.maxConcurrent).toBe(3);
  });
});
