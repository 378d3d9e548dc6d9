// The replay table behind POST /upscale/single on its own: a keyed job outlives its last client
// only for the grace period, and an unkeyed one stops with its client at once.
import { describe, expect, it } from 'vitest';
import { IdempotentResults } from '../../../server/modules/upscale/idempotent-results.js';
import type { UpscaleOutcome } from '../../../server/modules/upscale/upscale-service.js';

const OUTCOME: UpscaleOutcome = {
  resultId: 'AAAAAAAAAAAAAAAAAAAAAA',
  url: '/r/1/a.png',
  filename: 'a.png',
  width: 2,
  height: 2,
  scale: 2,
  durationMs: 1,
};

/** Work that runs until its signal aborts or the test finishes it. */
function heldWork() {
  let finish = () => {};
  let seen: AbortSignal | undefined;
  const work = (signal: AbortSignal) => {
    seen = signal;
    return new Promise<UpscaleOutcome>((resolve, reject) => {
      finish = () => resolve(OUTCOME);
      signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
    });
  };
  return { work, finish: () => finish(), signal: () => seen! };
}

describe('idempotent upscale results', () => {
  const now = () => new Date();

  it('cancels a keyed job once its last client is gone and the grace ran out; the next attempt runs afresh', async () => {
    const results = new IdempotentResults(3600, now, 50);
    const held = heldWork();
    const client = new AbortController();
    const first = results.run('k', 1, 'fp', client.signal, held.work);
    await new Promise((r) => setTimeout(r, 0));
    client.abort();
    await new Promise((r) => setTimeout(r, 20));
    expect(held.signal().aborted).toBe(false);
    await expect(first).rejects.toThrow('cancelled');
    expect(held.signal().aborted).toBe(true);

    const again = heldWork();
    const second = results.run('k', 1, 'fp', new AbortController().signal, again.work);
    await new Promise((r) => setTimeout(r, 0));
    again.finish();
    expect(await second).toEqual({ outcome: OUTCOME, replayed: false, keyed: true });
  });

  it('a client that comes back within the grace keeps the job alive and shares its result', async () => {
    const results = new IdempotentResults(3600, now, 50);
    const held = heldWork();
    const gone = new AbortController();
    void results.run('k', 1, 'fp', gone.signal, held.work).catch(() => {});
    await new Promise((r) => setTimeout(r, 0));
    gone.abort();
    const back = results.run('k', 1, 'fp', new AbortController().signal, () =>
      Promise.reject(new Error('ran twice')),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(held.signal().aborted).toBe(false);
    held.finish();
    expect(await back).toEqual({ outcome: OUTCOME, replayed: true, keyed: true });
  });

  it('without a key the work follows its client directly', async () => {
    const results = new IdempotentResults(3600, now, 50);
    const held = heldWork();
    const client = new AbortController();
    const run = results.run(undefined, 1, 'fp', client.signal, held.work);
    await new Promise((r) => setTimeout(r, 0));
    client.abort();
    expect(held.signal().aborted).toBe(true);
    await expect(run).rejects.toThrow('cancelled');
  });

  it("the owner's cancel stops a job in its grace at once; a client that joined it is not restarted", async () => {
    const results = new IdempotentResults(3600, now, 60_000);
    const held = heldWork();
    const gone = new AbortController();
    const first = results.run('k', 1, 'fp', gone.signal, held.work);
    await new Promise((r) => setTimeout(r, 0));
    gone.abort();
    const joined = results.run('k', 1, 'fp', new AbortController().signal, () =>
      Promise.reject(new Error('ran twice')),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(await results.cancel('k', 2)).toBe('not_owner');
    expect(held.signal().aborted).toBe(false);

    expect(await results.cancel('k', 1)).toBe('stopped');
    expect(held.signal().aborted).toBe(true);
    await expect(first).rejects.toThrow('cancelled');
    await expect(joined).rejects.toThrow('cancelled');
    expect(await results.cancel('k', 1)).toBe('unknown');
  });

  it('cancelling a finished job forgets its result: the resend runs afresh', async () => {
    const results = new IdempotentResults(3600, now, 50);
    const held = heldWork();
    const first = results.run('k', 1, 'fp', new AbortController().signal, held.work);
    await new Promise((r) => setTimeout(r, 0));
    held.finish();
    await first;
    expect(await results.cancel('k', 1)).toBe('discarded');
    const again = heldWork();
    const second = results.run('k', 1, 'fp', new AbortController().signal, again.work);
    await new Promise((r) => setTimeout(r, 0));
    again.finish();
    expect(await second).toEqual({ outcome: OUTCOME, replayed: false, keyed: true });
  });
});
