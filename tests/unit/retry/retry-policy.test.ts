// The product's one retry policy: delays, jitter, Retry-After, the time budget, easing after a
// success, and withRetry's handling of transient and final failures and of cancel.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/api';
import {
  RETRY_POLICY,
  backoffDelay,
  easeAfterSuccess,
  pauseStreak,
  planRetry,
  secondsUntil,
} from '../../../src/lib/retry/retry-policy';
import { transientFailure } from '../../../src/lib/retry/transient-failure';
import { RetryGaveUp, withRetry } from '../../../src/lib/retry/with-retry';

const nominal = () => 0.5;

describe('retry policy', () => {
  it('doubles from about 1 s up to 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 40].map((n) => backoffDelay(n, { random: nominal }))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('spreads each wait by a quarter either way, and never past the cap', () => {
    expect(backoffDelay(3, { random: () => 0 })).toBe(3000);
    expect(backoffDelay(3, { random: () => 1 })).toBe(5000);
    expect(backoffDelay(10, { random: () => 1 })).toBe(60_000);
    const spread = new Set(Array.from({ length: 50 }, (_, i) => backoffDelay(4, { random: () => i / 50 })));
    expect(spread.size).toBeGreaterThan(40);
  });

  it('never waits less than Retry-After, but no longer than the budget', () => {
    expect(backoffDelay(1, { random: nominal, retryAfterMs: 98_000 })).toBe(98_000);
    expect(backoffDelay(5, { random: nominal, retryAfterMs: 200 })).toBe(16_000);
    expect(backoffDelay(1, { random: nominal, retryAfterMs: 24 * 3600_000 })).toBe(RETRY_POLICY.budgetMs);
  });

  it('gives up only once the streak has lasted the budget, however many failures it took', () => {
    let streak = undefined as ReturnType<typeof planRetry>['streak'] | undefined;
    let now = 0;
    // 50 failures within a minute: still retrying.
    for (let i = 0; i < 50; i++) {
      const d = planRetry(streak, now, { random: nominal });
      expect(d.kind).toBe('retry');
      streak = d.streak;
      now += 1000;
    }
    now = RETRY_POLICY.budgetMs - 1;
    expect(planRetry(streak, now).kind).toBe('retry');
    now = RETRY_POLICY.budgetMs;
    expect(planRetry(streak, now)).toMatchObject({ kind: 'give-up', streak: { since: 0, failures: 51 } });
  });

  it('a success elsewhere starts the backoff over and brings a long wait forward; the budget clock keeps running', () => {
    const eased = easeAfterSuccess({ since: 100, failures: 6, nextAttemptAt: 70_000 }, 10_000, { random: nominal });
    expect(eased).toEqual({ since: 100, failures: 0, nextAttemptAt: 11_000 });
    // A wait already shorter stays as it was.
    expect(easeAfterSuccess({ since: 0, failures: 1, nextAttemptAt: 10_200 }, 10_000, { random: nominal }).nextAttemptAt).toBe(10_200);
  });

  it('time offline moves the budget clock on, and the countdown is in whole seconds', () => {
    expect(pauseStreak({ since: 1000, failures: 3, nextAttemptAt: 5000 }, 60_000).since).toBe(61_000);
    expect(secondsUntil({ nextAttemptAt: 8_001 }, 0)).toBe(9);
    expect(secondsUntil({ nextAttemptAt: 8_000 }, 0)).toBe(8);
    expect(secondsUntil({ nextAttemptAt: 0 }, 5)).toBe(0);
  });

  it('treats no answer, timeouts, overload and gateway errors as transient, and refusals as final', () => {
    expect(transientFailure(new ApiError('network', 0, 'No connection'))).toEqual({});
    expect(transientFailure(new ApiError('http', 503, 'busy', 503, undefined, [], 12))).toEqual({ retryAfterMs: 12_000 });
    expect(transientFailure(new ApiError('http', 502, 'bad gateway', 502))).toEqual({});
    expect(transientFailure(new ApiError('http', 408, 'timeout', 408))).toEqual({});
    expect(transientFailure(new ApiError('http', 429, 'slow down', 429))).toEqual({});
    expect(transientFailure(new ApiError('http', 400, 'bad', 400))).toBeNull();
    expect(transientFailure(new ApiError('http', 403, 'no', 403))).toBeNull();
    expect(transientFailure(new ApiError('cancelled', -1, 'cancelled'))).toBeNull();
    expect(transientFailure(new Error('plain'))).toBeNull();
  });
});

describe('withRetry', () => {
  function fakeTime() {
    let now = 0;
    const slept: number[] = [];
    return {
      now: () => now,
      slept,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    };
  }

  it('tries transient failures again on the policy delays and returns the first success', async () => {
    const time = fakeTime();
    let calls = 0;
    const told: number[] = [];
    const result = await withRetry(
      async () => {
        calls += 1;
        if (calls < 4) throw new ApiError('network', 0, 'reset');
        return 'video-task-1';
      },
      { ...time, random: nominal, onRetry: (s) => told.push(s.nextAttemptAt - time.now()) },
    );
    expect(result).toBe('video-task-1');
    expect(time.slept).toEqual([1000, 2000, 4000]);
    expect(told).toEqual([1000, 2000, 4000]);
  });

  it('throws a refusal at once, without retrying', async () => {
    const time = fakeTime();
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls += 1;
          throw new ApiError('http', 400, 'prompt too long', 400);
        },
        time,
      ),
    ).rejects.toMatchObject({ status: 400 });
    expect(calls).toBe(1);
  });

  it('gives up after the budget with the last error, for the page to ask the person', async () => {
    const time = fakeTime();
    const error = await withRetry(
      async () => {
        throw new ApiError('http', 503, 'busy', 503);
      },
      { ...time, random: nominal },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryGaveUp);
    expect((error as RetryGaveUp).lastError).toMatchObject({ status: 503 });
    expect(time.now()).toBeGreaterThanOrEqual(RETRY_POLICY.budgetMs);
    expect(time.slept.length).toBeLessThan(20);
  });

  it('stops waiting at once when cancelled', async () => {
    const controller = new AbortController();
    let calls = 0;
    const started = Date.now();
    const run = withRetry(
      async () => {
        calls += 1;
        throw new ApiError('network', 0, 'reset');
      },
      { signal: controller.signal, random: nominal },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(run).rejects.toMatchObject({ kind: 'network' });
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(900);
  });
});
