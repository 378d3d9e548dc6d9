// Retrying the outbox while online: which failures are retried, how long to wait (growing, never
// shorter than Retry-After, capped), and that a planned retry really runs, with no reconnect.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/lib/api';
import { classifyFailure } from '../../../src/lib/offline/app-outbox';
import { createOutbox, type OutboxStorage } from '../../../src/lib/offline/outbox';
import type { OutboxRecord } from '../../../src/lib/db/schema';
import {
  MAX_RETRY_DELAY_MS,
  RETRY_DELAYS_MS,
  createRetrySchedule,
  retryDelay,
} from '../../../src/lib/offline/retry-schedule';

const noJitter = () => 0;

describe('outbox retry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries server errors, timeouts and rate limits with the server-given wait; refuses the rest', () => {
    expect(classifyFailure(new ApiError('http', 503, 'Service unavailable', 503, undefined, [], 12))).toEqual(
      {
        kind: 'retry',
        message: 'Service unavailable',
        retryAfterMs: 12_000,
      },
    );
    expect(classifyFailure(new ApiError('http', 429, 'Too many requests', 429))).toMatchObject({
      kind: 'retry',
      retryAfterMs: undefined,
    });
    expect(classifyFailure(new ApiError('http', 408, 'Timeout', 408))).toMatchObject({ kind: 'retry' });
    expect(classifyFailure(new ApiError('network', 0, 'No connection'))).toMatchObject({ kind: 'retry' });
    expect(classifyFailure(new ApiError('http', 409, 'A prompt of this type already exists', 409))).toEqual({
      kind: 'refused',
      message: 'A prompt of this type already exists',
    });
  });

  it('waits longer each time, never less than Retry-After, never more than the cap', () => {
    const waits = [0, 1, 2, 3, 4, 5, 6, 20].map((n) => retryDelay(n, 0, noJitter));
    expect(waits).toEqual([...RETRY_DELAYS_MS, RETRY_DELAYS_MS.at(-1), RETRY_DELAYS_MS.at(-1)]);
    expect(retryDelay(0, 45_000, noJitter)).toBe(45_000);
    expect(retryDelay(0, 24 * 60 * 60 * 1000, noJitter)).toBe(MAX_RETRY_DELAY_MS);
    // Jitter only lengthens the wait, by at most a fifth.
    expect(retryDelay(0, 0, () => 0.999)).toBeGreaterThan(RETRY_DELAYS_MS[0]);
    expect(retryDelay(0, 0, () => 0.999)).toBeLessThanOrEqual(RETRY_DELAYS_MS[0] * 1.2);
  });

  it('a planned retry replays the queue once the server is back, without any reconnect', async () => {
    vi.useFakeTimers();
    const rows: OutboxRecord[] = [];
    const storage: OutboxStorage = {
      add: async (r) => {
        const withSeq = { ...r, seq: rows.length + 1 };
        rows.push(withSeq);
        return withSeq;
      },
      list: async (u) => rows.filter((r) => r.userKey === u),
      put: async (r) =>
        void rows.splice(
          rows.findIndex((x) => x.seq === r.seq),
          1,
          r,
        ),
      remove: async (s) =>
        void rows.splice(
          rows.findIndex((x) => x.seq === s),
          1,
        ),
    };
    let failures = 2;
    const sent: string[] = [];
    const outbox = createOutbox({
      storage,
      send: async (r) => {
        sent.push(r.id);
        if (failures > 0) {
          failures -= 1;
          throw new ApiError(
            'http',
            503,
            'Service unavailable',
            503,
            undefined,
            [],
            failures === 1 ? 10 : undefined,
          );
        }
      },
      classify: classifyFailure,
      currentUser: () => 'id:1',
    });
    const waits: number[] = [];
    const schedule = createRetrySchedule(() => void sync(), noJitter);
    async function sync() {
      const report = await outbox.flush('id:1');
      if (report.failure) waits.push(schedule.schedule(report.failure.retryAfterMs));
      else schedule.reset();
    }
    await outbox.enqueue('id:1', 'prompt', { n: 1 });
    await sync();
    expect(waits).toEqual([10_000]);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([10_000, RETRY_DELAYS_MS[1]]);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[1]);
    expect(sent).toHaveLength(3);
    expect(rows).toEqual([]);
    expect(schedule.planned).toBe(false);
  });
});
