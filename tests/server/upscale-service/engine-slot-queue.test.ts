// The job queue on its own: slots, first-come order, the waiting limit, cancellation while
// waiting, and slots given back whatever a job does.
import { describe, expect, it } from 'vitest';
import { EngineSlotQueue } from '../../../server/modules/upscale/engine-slot-queue.js';
import { UpscaleHttpError } from '../../../server/modules/upscale/upscale-http-error.js';
import { UpscaleError } from '../../../server/upscale/errors.js';

function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('engine slot queue', () => {
  it('runs up to `concurrency` jobs on distinct slots, the rest in arrival order, and refuses beyond the limit', async () => {
    const q = new EngineSlotQueue(2, 2);
    const order: string[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const job = (name: string, g: { promise: Promise<void> }) => async (_: AbortSignal, slot: number) => {
      order.push(`${name}@${slot}`);
      await g.promise;
      return name;
    };
    const signal = new AbortController().signal;
    const runs = ['a', 'b', 'c', 'd'].map((n, i) => q.run(job(n, gates[i]!), signal));
    expect([q.running, q.queued]).toEqual([2, 2]);
    let refused: unknown;
    try {
      q.assertCapacity();
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(UpscaleHttpError);
    expect(refused).toMatchObject({ status: 503, code: 'queue_full' });
    await expect(q.run(job('e', gate()), signal)).rejects.toMatchObject({ code: 'queue_full' });
    await new Promise((r) => setImmediate(r));
    gates[1]!.open();
    expect(await runs[1]).toBe('b');
    gates[0]!.open();
    gates[2]!.open();
    gates[3]!.open();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'd']);
    // c took b's slot (1), d took a's (0).
    expect(order).toEqual(['a@0', 'b@1', 'c@1', 'd@0']);
    expect([q.running, q.queued]).toEqual([0, 0]);
  });

  it('drops a waiting job whose signal aborts; it never runs', async () => {
    const q = new EngineSlotQueue(1, 5);
    const g = gate();
    const first = q.run(() => g.promise, new AbortController().signal);
    const controller = new AbortController();
    let ran = false;
    const waiting = q.run(async () => {
      ran = true;
    }, controller.signal);
    expect(q.queued).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(UpscaleError);
    expect(q.queued).toBe(0);
    g.open();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(ran).toBe(false);
    // An already aborted signal never queues.
    await expect(q.run(async () => 1, AbortSignal.abort())).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('gives the slot back when a job throws, even synchronously', async () => {
    const q = new EngineSlotQueue(1, 0);
    const signal = new AbortController().signal;
    await expect(
      q.run(() => {
        throw new Error('boom');
      }, signal),
    ).rejects.toThrow('boom');
    await expect(q.run(() => Promise.reject(new Error('later')), signal)).rejects.toThrow('later');
    await new Promise((r) => setImmediate(r));
    expect(q.running).toBe(0);
    expect(await q.run(async () => 'ok', signal)).toBe('ok');
    expect(q.retryAfterSeconds()).toBeGreaterThanOrEqual(1);
  });
});

describe('engine slot queue: Retry-After from measured job times', () => {
  /** a queue on a clock the test moves, and a job that takes as long as the test says */
  function clocked(concurrency: number, maxWaiting: number) {
    let t = 1_000_000;
    const q = new EngineSlotQueue(concurrency, maxWaiting, () => t);
    const signal = new AbortController().signal;
    const start = (): {
      done: (afterMs: number) => Promise<void>;
      fail: (afterMs: number) => Promise<void>;
    } => {
      const g = gate();
      let failing = false;
      const run = q.run(async () => {
        await g.promise;
        if (failing) throw new Error('engine failed');
      }, signal);
      const settle = async (afterMs: number) => {
        t += afterMs;
        g.open();
        await run.catch(() => undefined);
        await new Promise((r) => setImmediate(r));
      };
      return {
        done: settle,
        fail: (afterMs) => {
          failing = true;
          return settle(afterMs);
        },
      };
    };
    return { q, start, advance: (ms: number) => (t += ms) };
  }

  it('guesses 5 s a job until one has finished, counting what is left of the running one', () => {
    const { q, start, advance } = clocked(1, 8);
    for (let i = 0; i < 9; i++) start();
    expect(q.retryAfterSeconds()).toBe(45);
    advance(4_000);
    expect(q.retryAfterSeconds()).toBe(41);
  });

  it('tracks measured durations: the running job’s remaining time plus the waiting ones, not a full job each', async () => {
    const { q, start, advance } = clocked(1, 8);
    for (let i = 0; i < 3; i++) await start().done(3_800);
    expect(q.expectedJobMs()).toBe(3_800);
    for (let i = 0; i < 9; i++) start();
    advance(2_000);
    // 1.8 s left of the running job + 8 × 3.8 s waiting = 32.2 s (the old average said 5 s+ × 9).
    expect(q.retryAfterSeconds()).toBe(33);
    // A job running past the expected length counts as about to finish.
    advance(10_000);
    expect(q.retryAfterSeconds()).toBe(31);
  });

  it('is not inflated by a slow first job (the model loading) or lowered by failed ones', async () => {
    const { q, start } = clocked(1, 8);
    await start().done(30_000);
    await start().done(4_000);
    await start().done(4_000);
    await start().fail(50);
    expect(q.expectedJobMs()).toBe(4_000);
    for (let i = 0; i < 9; i++) start();
    expect(q.retryAfterSeconds()).toBe(36);
  });

  it('shares the work among the slots', async () => {
    const { q, start, advance } = clocked(2, 4);
    await start().done(2_000);
    start();
    advance(1_000);
    start();
    advance(500);
    for (let i = 0; i < 4; i++) start();
    // (0.5 s + 1.5 s left of the running jobs + 4 × 2 s waiting) / 2 slots = 5 s.
    expect(q.retryAfterSeconds()).toBe(5);
  });
});
