// The queue engine's pure decisions, apart from the engine: item transitions, what an attempt's
// end means, which items start, the wake timer and the probe's delays.
import { describe, expect, it } from 'vitest';
import {
  CUT_STATUSES,
  deviceResult,
  serverResult,
  serverVerdict,
  waitsForService,
} from '../../../src/workers/upscale-queue/attempt-outcome';
import {
  FINISHED,
  RETRYABLE,
  UNFINISHED,
  applyPatch,
  newQueueItem,
  raisedProgress,
  reloadedRequest,
  retryPatch,
} from '../../../src/workers/upscale-queue/item-transitions';
import type { QueueItem } from '../../../src/workers/upscale-queue/protocol';
import { PROBE_DELAYS_MS, probeDelay } from '../../../src/workers/upscale-queue/service-watch';
import { WakeTimer } from '../../../src/workers/upscale-queue/wake-timer';
import { nextForDevice, planServerWindow } from '../../../src/workers/upscale-queue/window-plan';
import { PARAMS } from './queue-harness';

function item(id: string, seq: number, patch: Partial<QueueItem> = {}): QueueItem {
  return {
    ...newQueueItem({
      entry: { fileId: `f-${id}`, name: `${id}.png`, type: 'image/png', size: 10, blob: new Blob(['x']) },
      params: PARAMS,
      owner: 'alice',
      id,
      idempotencyKey: `key-${id}`,
      seq,
      now: 1000,
    }),
    ...patch,
  };
}

const running = (...ids: string[]) => new Set(ids);

describe('item transitions', () => {
  it('a new item waits, with its own key, place and a copy of the parameters', () => {
    const params = { ...PARAMS };
    const made = newQueueItem({
      entry: { fileId: 'f1', name: 'a.png', type: 'image/png', size: 42, blob: new Blob(['x']) },
      params,
      owner: 'alice',
      id: 'i1',
      idempotencyKey: 'k1',
      seq: 7,
      now: 5,
    });
    expect(made).toEqual({
      id: 'i1',
      userKey: 'alice',
      fileId: 'f1',
      fileName: 'a.png',
      fileType: 'image/png',
      fileSize: 42,
      params: PARAMS,
      status: 'waiting',
      progress: 0,
      idempotencyKey: 'k1',
      bytesSent: false,
      attempts: 0,
      seq: 7,
      createdAt: 5,
      updatedAt: 5,
    });
    expect(made.params).not.toBe(params);
  });

  it('a request a closed page left running is interrupted only if bytes left the device', () => {
    expect(reloadedRequest(item('a', 0, { status: 'processing', progress: 40, bytesSent: true }), 9)).toMatchObject({
      status: 'interrupted',
      progress: 0,
      updatedAt: 9,
    });
    expect(reloadedRequest(item('b', 0, { status: 'processing', progress: 40 }), 9).status).toBe('waiting');
  });

  it('a retry keeps an interrupted request’s key and gives a failed or cancelled one a new key', () => {
    let asked = 0;
    const newKey = () => `new-${++asked}`;
    const interrupted = retryPatch(item('a', 0, { status: 'interrupted', keySent: true }), newKey);
    expect(interrupted).toMatchObject({ status: 'waiting', idempotencyKey: 'key-a', keySent: true, bytesSent: false });
    expect(asked).toBe(0);
    const failed = retryPatch(item('b', 1, { status: 'failed', keySent: true }), newKey);
    expect(failed).toMatchObject({ status: 'waiting', idempotencyKey: 'new-1', keySent: undefined, retry: undefined });
    expect(asked).toBe(1);
  });

  it('a patch changes the item in place and removes the keys it sets to undefined', () => {
    const it1 = item('a', 0, { error: { code: 'x', status: 500, message: 'm' } });
    applyPatch(it1, { status: 'waiting', error: undefined }, 77);
    expect(it1.status).toBe('waiting');
    expect(it1.updatedAt).toBe(77);
    expect('error' in it1).toBe(false);
  });

  it('progress is whole, at most 100, and never goes back', () => {
    expect(raisedProgress(10, 33.6)).toBe(34);
    expect(raisedProgress(50, 20)).toBe(50);
    expect(raisedProgress(0, 140)).toBe(100);
  });

  it('status groups: what cancel, retry and clear finished act on', () => {
    expect([...UNFINISHED].sort()).toEqual(['interrupted', 'processing', 'waiting']);
    expect([...RETRYABLE].sort()).toEqual(['cancelled', 'failed', 'interrupted']);
    expect([...FINISHED].sort()).toEqual(['cancelled', 'completed', 'failed']);
  });
});

describe('attempt outcomes', () => {
  it('tells a cut on the way from a refusal, a full service and a failure', () => {
    expect(serverVerdict({ kind: 'aborted' }, false)).toEqual({ kind: 'cancelled' });
    expect(serverVerdict({ kind: 'network', reachedServer: false }, false)).toEqual({ kind: 'in-transit', mayHaveReachedServer: false });
    expect(serverVerdict({ kind: 'network', reachedServer: false }, true)).toEqual({ kind: 'in-transit', mayHaveReachedServer: true });
    expect(serverVerdict({ kind: 'network', reachedServer: true }, false)).toEqual({ kind: 'in-transit', mayHaveReachedServer: true });
    for (const status of CUT_STATUSES) {
      expect(serverVerdict({ kind: 'http-error', status, code: status, message: '', retryAfterMs: 3000 }, false)).toEqual({
        kind: 'in-transit',
        mayHaveReachedServer: true,
        retryAfterMs: 3000,
      });
    }
    expect(serverVerdict({ kind: 'http-error', status: 401, code: 401, message: '' }, true)).toEqual({ kind: 'needs-token' });
    expect(serverVerdict({ kind: 'http-error', status: 429, code: 429, message: '', retryAfterMs: 5000 }, false)).toEqual({
      kind: 'service-busy',
      retryAfterMs: 5000,
    });
    expect(serverVerdict({ kind: 'http-error', status: 503, code: 503, message: '' }, false).kind).toBe('service-busy');
    expect(serverVerdict({ kind: 'http-error', status: 400, code: 'bad-image', message: 'no' }, false)).toEqual({
      kind: 'failed',
      error: { code: 'bad-image', status: 400, message: 'no' },
    });
  });

  it('a server result says where it was made and keeps a size only when both sides are known', () => {
    const ok = { kind: 'ok' as const, url: 'u', filename: 'f.png', message: 'm' };
    expect(serverResult(ok, 100, 350)).toEqual({ url: 'u', filename: 'f.png', message: 'm', durationMs: 250, completedAt: 350, madeOn: 'server' });
    expect(serverResult({ ...ok, width: 10, height: 20 }, 0, 1)).toMatchObject({ width: 10, height: 20 });
    expect(serverResult({ ...ok, width: 10 }, 0, 1)).not.toHaveProperty('width');
  });

  it('a device result has no link and carries the file’s size and type', () => {
    const blob = new Blob(['abcd'], { type: 'image/png' });
    expect(deviceResult(item('a', 0), { kind: 'ok', blob, width: 8, height: 6 }, 10, 30)).toEqual({
      url: '',
      filename: 'a.png',
      message: '',
      durationMs: 20,
      completedAt: 30,
      outputSize: 4,
      outputType: 'image/png',
      width: 8,
      height: 6,
      madeOn: 'device',
    });
  });

  it('a fallback that lost the model graphs waits for the service; a chosen device item fails', () => {
    const lost = { kind: 'error' as const, code: 'models_unavailable', message: '' };
    expect(waitsForService(lost, item('a', 0))).toBe(true);
    expect(waitsForService(lost, item('b', 0, { params: { ...PARAMS, onDevice: true } }))).toBe(false);
    expect(waitsForService({ kind: 'error', code: 'device-error', message: '' }, item('c', 0))).toBe(false);
  });
});

describe('the window', () => {
  it('fills the free slots in queue order, skipping items that are not waiting', () => {
    const items = [item('a', 0, { status: 'processing' }), item('b', 1), item('c', 2, { status: 'failed' }), item('d', 3), item('e', 4)];
    const plan = planServerWindow(items, { running: running('a'), max: 3, now: 0, deviceTakesOnDevice: false });
    expect(plan.start.map((i) => i.id)).toEqual(['b', 'd']);
    expect(plan.wakeAt).toBe(Infinity);
  });

  it('lets items behind one waiting out its retry delay go first, and wakes at the earliest delay', () => {
    const items = [
      item('a', 0, { retry: { since: 0, failures: 2, nextAttemptAt: 500 } }),
      item('b', 1, { retry: { since: 0, failures: 1, nextAttemptAt: 300 } }),
      item('c', 2),
      item('d', 3, { retry: { since: 0, failures: 1, nextAttemptAt: 50 } }),
    ];
    const plan = planServerWindow(items, { running: running(), max: 3, now: 100, deviceTakesOnDevice: false });
    expect(plan.start.map((i) => i.id)).toEqual(['c', 'd']);
    expect(plan.wakeAt).toBe(300);
  });

  it('stops looking once the window is full', () => {
    const items = [item('a', 0), item('b', 1, { retry: { since: 0, failures: 1, nextAttemptAt: 900 } })];
    const plan = planServerWindow(items, { running: running('x', 'y'), max: 3, now: 0, deviceTakesOnDevice: false });
    expect(plan.start.map((i) => i.id)).toEqual(['a']);
    expect(plan.wakeAt).toBe(Infinity);
  });

  it('leaves items sent "on this device" to the device when it can upscale', () => {
    const items = [item('a', 0, { params: { ...PARAMS, onDevice: true } }), item('b', 1)];
    expect(planServerWindow(items, { running: running(), max: 3, now: 0, deviceTakesOnDevice: true }).start.map((i) => i.id)).toEqual(['b']);
    expect(planServerWindow(items, { running: running(), max: 3, now: 0, deviceTakesOnDevice: false }).start).toHaveLength(2);
  });

  it('the device takes chosen items after their delay, and any waiting item at once while offline', () => {
    const chosen = item('a', 0, { params: { ...PARAMS, onDevice: true }, retry: { since: 0, failures: 1, nextAttemptAt: 200 } });
    const other = item('b', 1);
    expect(nextForDevice([chosen, other], { running: running(), offline: false, now: 100 })).toBeUndefined();
    expect(nextForDevice([chosen, other], { running: running(), offline: false, now: 200 })?.id).toBe('a');
    expect(nextForDevice([chosen, other], { running: running(), offline: true, now: 100 })?.id).toBe('a');
    expect(nextForDevice([chosen, other], { running: running('a'), offline: true, now: 100 })?.id).toBe('b');
  });
});

describe('the wake timer and the probe delays', () => {
  function fakeTimers() {
    const set: { ms: number; fn: () => void; cancelled: boolean }[] = [];
    const setTimer = (fn: () => void, ms: number) => {
      const t = { ms, fn, cancelled: false };
      set.push(t);
      return () => {
        t.cancelled = true;
      };
    };
    return { set, setTimer };
  }

  it('keeps one timer for the earliest moment asked', () => {
    const { set, setTimer } = fakeTimers();
    let woken = 0;
    const wake = new WakeTimer(setTimer, () => 1000, () => woken++);
    wake.wakeAt(1500);
    wake.wakeAt(1800); // later: the earlier timer stays
    expect(set.map((t) => [t.ms, t.cancelled])).toEqual([[500, false]]);
    wake.wakeAt(1200); // earlier: replaces it
    expect(set.map((t) => [t.ms, t.cancelled])).toEqual([
      [500, true],
      [200, false],
    ]);
    set[1]!.fn();
    expect(woken).toBe(1);
    wake.wakeAt(1900); // after firing, any moment sets a new timer
    expect(set[2]!.ms).toBe(900);
    wake.wakeAt(500); // a moment already past fires at once
    expect(set[3]!.ms).toBe(0);
  });

  it('probes soon at first, then every ten seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(probeDelay)).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
    expect(probeDelay(0)).toBe(PROBE_DELAYS_MS[0]);
  });
});
