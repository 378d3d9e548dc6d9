// Retrying the outbox while online: which failures are retried, how long to wait (the shared
// retry policy: growing, never shorter than Retry-After, capped), that a planned retry really runs
// with no reconnect, and that it stops after the policy's budget.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/lib/api';
import { classifyFailure } from '../../../src/lib/offline/app-outbox';
import { createOutbox, type OutboxStorage } from '../../../src/lib/offline/outbox';
import type { OutboxRecord } from '../../../src/lib/db/schema';
import { createRetrySchedule } from '../../../src/lib/offline/retry-schedule';
import { RETRY_POLICY } from '../../../src/lib/retry/retry-policy';

/** The nominal delays, without jitter. */
const noJitter = () => 0.5;

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

  it('waits as the shared policy says: 1 s doubling to 60 s, never less than Retry-After, and gives up after the budget', () => {
    vi.useFakeTimers();
    let now = 0;
    let gaveUp = 0;
    const schedule = createRetrySchedule(() => {}, { random: noJitter, now: () => now, onGiveUp: () => (gaveUp += 1) });
    const waits: (number | null)[] = [];
    while (gaveUp === 0 && waits.length < 100) {
      const wait = schedule.schedule();
      waits.push(wait);
      now += wait ?? 0;
    }
    expect(waits.slice(0, 8)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(waits.at(-1)).toBeNull();
    expect(now).toBeGreaterThanOrEqual(RETRY_POLICY.budgetMs);
    expect(schedule.planned).toBe(false);
    // A success starts the streak over; Retry-After is honoured even beyond the usual cap.
    schedule.reset();
    expect(schedule.schedule(90_000)).toBe(90_000);
    expect(schedule.schedule()).toBe(2000);
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
    const schedule = createRetrySchedule(() => void sync(), { random: noJitter });
    async function sync() {
      const report = await outbox.flush('id:1');
      if (report.failure) waits.push(schedule.schedule(report.failure.retryAfterMs) ?? -1);
      else schedule.reset();
    }
    await outbox.enqueue('id:1', 'prompt', { n: 1 });
    await sync();
    expect(waits).toEqual([10_000]);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([10_000, 2000]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toHaveLength(3);
    expect(rows).toEqual([]);
    expect(schedule.planned).toBe(false);
  });
});
