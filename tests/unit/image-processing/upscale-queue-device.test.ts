// The queue's on-device upscaling: items fall back to the device while the service cannot be
// reached (only when the device has the model's graphs), items sent "on this device" never go to
// the server, and each result says where it was made.
import { describe, expect, it } from 'vitest';
import { QueueEngine } from '../../../src/workers/upscale-queue/queue-engine';
import { createMemoryQueueStore } from '../../../src/workers/upscale-queue/queue-store';
import type { QueueSnapshot } from '../../../src/workers/upscale-queue/protocol';
import type { LocalUpscaler, SendOutcome } from '../../../src/workers/upscale-queue/send-types';
import { countQueue } from '../../../src/features/image-processing/model/queue-counts';
import { AUTH, PARAMS, entries } from './queue-harness';

const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
};

function setup(opts: { reachable: boolean; ready: boolean }) {
  const store = createMemoryQueueStore();
  let last: QueueSnapshot | null = null;
  const sent: string[] = [];
  const ran: string[] = [];
  /** whether the item read as "on this device" while it ran, and the batch's counts then */
  const runningLocally: (boolean | undefined)[] = [];
  const countsWhileRunning: { onDevice: number; paused: QueueSnapshot['paused'] }[] = [];
  const local: LocalUpscaler = {
    ready: async () => opts.ready,
    run: async (request, onProgress) => {
      ran.push(request.fileName);
      onProgress(50);
      runningLocally.push(last?.items.find((i) => i.status === 'processing')?.runningLocally);
      if (last) countsWhileRunning.push({ onDevice: countQueue(last).onDevice, paused: last.paused });
      return { kind: 'ok', blob: new Blob(['png'], { type: 'image/png' }), width: 8, height: 8 };
    },
  };
  const engine = new QueueEngine({
    store,
    local,
    send: async (request): Promise<SendOutcome> => {
      sent.push(request.fileName);
      return opts.reachable
        ? { kind: 'ok', url: '/r', filename: 'r.png', message: 'ok' }
        : { kind: 'network', reachedServer: false };
    },
    probe: async () => ({ reachable: opts.reachable, resendSafe: true }),
    onSnapshot: (s) => {
      last = s;
    },
    setTimer: () => () => {},
  });
  return { engine, store, sent, ran, runningLocally, countsWhileRunning, snapshot: () => last ?? engine.snapshot() };
}

describe('upscale queue on this device', () => {
  it('upscales on the device while the service cannot be reached, one at a time', async () => {
    const q = setup({ reachable: false, ready: true });
    await q.engine.configure(AUTH);
    await q.engine.enqueue(entries(2), PARAMS);
    await flush();
    const items = q.snapshot().items;
    expect(items.map((i) => i.status)).toEqual(['completed', 'completed']);
    expect(items.map((i) => i.result?.madeOn)).toEqual(['device', 'device']);
    expect(items.every((i) => i.resultStored)).toBe(true);
    expect(q.ran).toEqual(['img-0.png', 'img-1.png']);
    expect(q.runningLocally).toEqual([true, true]);
    // The toolbar says the device works in the service's place, not that the batch is paused.
    expect(q.countsWhileRunning).toEqual([
      { onDevice: 1, paused: 'offline' },
      { onDevice: 1, paused: 'offline' },
    ]);
    expect(countQueue(q.snapshot()).onDevice).toBe(0);
    expect(items.some((i) => i.runningLocally)).toBe(false);
  });

  it('waits for the service when the device has no graphs', async () => {
    const q = setup({ reachable: false, ready: false });
    await q.engine.configure(AUTH);
    await q.engine.enqueue(entries(1), PARAMS);
    await flush();
    expect(q.snapshot().items[0]!.status).toBe('waiting');
    expect(q.ran).toEqual([]);
  });

  it('sends nothing to the server for items chosen "on this device", and marks server results', async () => {
    const q = setup({ reachable: true, ready: true });
    await q.engine.configure(AUTH);
    await q.engine.enqueue(entries(1), { ...PARAMS, onDevice: true });
    await q.engine.enqueue(entries(1), PARAMS);
    await flush();
    const [device, server] = q.snapshot().items;
    expect(device!.result?.madeOn).toBe('device');
    expect(server!.result?.madeOn).toBe('server');
    expect(q.sent).toEqual(['img-0.png']);
    expect(q.ran).toEqual(['img-0.png']);
  });
});
