// @vitest-environment node
// The bridge against a stand-in worker on a MessageChannel: the real worker module's API served
// by Comlink on the other port, so the wire protocol is the one the browser uses.
import * as Comlink from 'comlink';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildResultsZip } from '../../../src/lib/zip/build-results-zip';
import {
  createZipBridge,
  ZipGenerationError,
  type ZipWorkerHandle,
} from '../../../src/lib/workers/zip-bridge';

interface FakeWorker extends ZipWorkerHandle {
  terminated: boolean;
}

const ports: MessagePort[] = [];

/** A worker whose build() is given; terminate() closes both ports, so no answer can arrive. */
function fakeWorker(build: (items: never[], onProgress?: (p: unknown) => void) => Promise<Blob>): FakeWorker {
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  Comlink.expose({ build }, channel.port2);
  const port = channel.port1;
  const handle: FakeWorker = {
    terminated: false,
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer ?? []),
    addEventListener: (type, listener) =>
      port.addEventListener(type as 'message', listener as (e: MessageEvent) => void),
    removeEventListener: (type, listener) =>
      port.removeEventListener(type as 'message', listener as (e: MessageEvent) => void),
    start: () => port.start(),
    terminate: () => {
      handle.terminated = true;
      channel.port1.close();
      channel.port2.close();
    },
  };
  return handle;
}

function item(name: string, size: number) {
  return {
    sourceName: name,
    modelName: 'up2x-conservative',
    scale: 2,
    width: 2,
    height: 2,
    durationMs: 10,
    blob: new Blob([new Uint8Array(size)], { type: 'image/png' }),
  };
}

afterEach(() => {
  for (const port of ports.splice(0)) port.close();
  vi.useRealTimers();
});

describe('zip bridge', () => {
  it('starts a worker on first use, builds the ZIP and reports progress', async () => {
    const spawned: FakeWorker[] = [];
    const bridge = createZipBridge(() => {
      const w = fakeWorker((items, onProgress) => buildResultsZip(items, { onProgress, chunkBytes: 1000 }));
      spawned.push(w);
      return w;
    });
    expect(bridge.running).toBe(false);
    const progress: unknown[] = [];
    const blob = await bridge.build([item('a.png', 5000)], { onProgress: (p) => progress.push(p) });
    expect(Object.keys(unzipSync(new Uint8Array(await blob.arrayBuffer())))).toEqual([
      'a_up2x-conservative.png',
      'manifest.csv',
    ]);
    await vi.waitFor(() => expect(progress.length).toBeGreaterThan(0));
    expect(spawned).toHaveLength(1);
    await bridge.build([item('b.png', 10)]);
    expect(spawned).toHaveLength(1);
    bridge.terminate();
  });

  it('terminates the worker on abort, rejects with AbortError, and starts afresh next time', async () => {
    const spawned: FakeWorker[] = [];
    const bridge = createZipBridge(() => {
      // A build that never finishes: only terminate() can end it.
      const w = fakeWorker(() => new Promise<Blob>(() => {}));
      spawned.push(w);
      return w;
    });
    const controller = new AbortController();
    const build = bridge.build([item('a.png', 10)], { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(build).rejects.toMatchObject({ name: 'AbortError' });
    expect(spawned[0]?.terminated).toBe(true);
    expect(bridge.running).toBe(false);

    const again = bridge.build([item('b.png', 10)]);
    expect(spawned).toHaveLength(2);
    bridge.terminate();
    await expect(again).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('never leaves a call hanging on a worker that was terminated underneath it', async () => {
    const bridge = createZipBridge(() => fakeWorker(() => new Promise<Blob>(() => {})));
    const first = bridge.build([item('a.png', 10)]);
    const second = bridge.build([item('b.png', 10)]);
    bridge.terminate();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('turns a failure inside the worker into "ZIP generation failed"', async () => {
    const bridge = createZipBridge(() =>
      fakeWorker(() => {
        throw new Error('disk full');
      }),
    );
    const error = await bridge.build([item('a.png', 10)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZipGenerationError);
    expect((error as Error).message).toBe('ZIP generation failed');
    bridge.terminate();
  });

  it('stops an idle worker after the quiet spell', async () => {
    const spawned: FakeWorker[] = [];
    const bridge = createZipBridge(() => {
      const w = fakeWorker(() => Promise.resolve(new Blob(['x'])));
      spawned.push(w);
      return w;
    }, 50);
    await bridge.build([item('a.png', 10)]);
    expect(bridge.running).toBe(true);
    await vi.waitFor(() => expect(bridge.running).toBe(false), { timeout: 1000 });
    expect(spawned[0]?.terminated).toBe(true);
  });

  it('rejects at once when the signal is already aborted, without starting a worker', async () => {
    const spawn = vi.fn(() => fakeWorker(() => Promise.resolve(new Blob())));
    const bridge = createZipBridge(spawn);
    await expect(bridge.build([], { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(spawn).not.toHaveBeenCalled();
  });
});
