// The job queue on its own: slots, first-come order, the waiting limit, cancellation while
// waiting, and slots given back whatever a job does.
import { describe, expect, it } from 'vitest';
import { JobQueue } from '../../../server/modules/upscale/job-queue.js';
import { UpscaleHttpError } from '../../../server/modules/upscale/upscale-http-error.js';
import { UpscaleError } from '../../../server/upscale/errors.js';

function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('job queue', () => {
  it('runs up to `concurrency` jobs on distinct slots, the rest in arrival order, and refuses beyond the limit', async () => {
    const q = new JobQueue(2, 2);
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
    const q = new JobQueue(1, 5);
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
    const q = new JobQueue(1, 0);
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
