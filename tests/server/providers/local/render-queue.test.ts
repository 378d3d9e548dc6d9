import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../server/providers/capabilities.js';
import { SerialQueue } from '../../../../server/providers/local/render-queue.js';

/** Work that finishes when told to (or fails when its signal aborts). */
function controllable() {
  const releases: (() => void)[] = [];
  const started: number[] = [];
  const work = (job: number, signal: AbortSignal) =>
    new Promise<number>((resolve, reject) => {
      started.push(job);
      releases.push(() => resolve(job * 10));
      signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
  return { work, releases, started };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('serial queue', () => {
  it('runs one task at a time, in order', async () => {
    const { work, releases, started } = controllable();
    const queue = new SerialQueue(work);
    const a = queue.submit(1);
    const b = queue.submit(2);
    await tick();
    expect(started).toEqual([1]);
    expect(queue.state(a)).toEqual({ state: 'processing' });
    expect(queue.state(b)).toEqual({ state: 'queued' });
    releases[0]!();
    await tick();
    await tick();
    expect(queue.state(a)).toEqual({ state: 'succeeded', result: 10 });
    expect(started).toEqual([1, 2]);
    releases[1]!();
    await tick();
    await tick();
    expect(queue.state(b)).toEqual({ state: 'succeeded', result: 20 });
    expect(queue.pending).toBe(0);
  });

  it('cancels a waiting task without running it, and aborts a running one', async () => {
    const { work, started } = controllable();
    const queue = new SerialQueue(work);
    const running = new AbortController();
    const waiting = new AbortController();
    const a = queue.submit(1, running.signal);
    const b = queue.submit(2, waiting.signal);
    await tick();
    waiting.abort();
    expect(queue.state(b)).toMatchObject({ state: 'failed', error: { kind: 'cancelled' } });
    running.abort();
    await tick();
    await tick();
    expect(queue.state(a)).toMatchObject({ state: 'failed', error: { kind: 'cancelled' } });
    expect(started).toEqual([1]);
  });

  it('refuses work past its bound, and forgets finished tasks after a while', async () => {
    const queue = new SerialQueue(async (job: number) => job, { maxPending: 2, resultTtlMs: 30 });
    const a = queue.submit(1);
    queue.submit(2);
    expect(() => queue.submit(3)).toThrow(ProviderError);
    try {
      queue.submit(3);
    } catch (e) {
      expect((e as ProviderError).kind).toBe('rate_limited');
      expect((e as ProviderError).retryAfterMs).toBeGreaterThan(0);
    }
    await tick();
    await tick();
    expect(queue.state(a)).toEqual({ state: 'succeeded', result: 1 });
    await new Promise((r) => setTimeout(r, 80));
    expect(queue.state(a)).toBeUndefined();
  });

  it('reports a failure of the work as a ProviderError', async () => {
    const queue = new SerialQueue(async () => {
      throw new Error('disk full');
    });
    const id = queue.submit(0);
    await tick();
    await tick();
    expect(queue.state(id)).toMatchObject({ state: 'failed', error: { kind: 'unavailable', message: 'disk full' } });
  });
});
