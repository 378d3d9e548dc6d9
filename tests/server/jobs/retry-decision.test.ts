// The rule both job queues apply to a failed run (no queue, no database): retry after a backoff
// while the budget lasts, or fail for good.
import { describe, expect, it } from 'vitest';
import { decideAfterFailure, type FailedRun } from '../../../server/jobs/retry-decision.js';
import { databaseOutage, failureKind, RetryableJobError } from '../../../server/jobs/retryable-error.js';
import { ProviderError } from '../../../server/providers/capabilities.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');
const run = (over: Partial<FailedRun>): FailedRun => ({
  error: undefined,
  timedOut: false,
  runLimitMs: 30_000,
  attempts: 1,
  deadline: '2030-01-01T00:10:00.000Z',
  now: NOW,
  backoff: { initialMs: 1000, maxMs: 60_000 },
  ...over,
});
/** The jitter's middle: no jitter at all. */
const even = () => 0.5;

describe('decideAfterFailure', () => {
  it('retries a retryable provider error after the backoff of its attempt', () => {
    const d = decideAfterFailure(run({ error: new ProviderError('rate_limited', 'slow down'), attempts: 3 }), even);
    expect(d).toMatchObject({ action: 'retry', waitMs: 4000, text: 'ProviderError: slow down' });
    expect(d.action === 'retry' && d.nextRunAt.toISOString()).toBe('2030-01-01T00:00:04.000Z');
  });

  it("waits for the provider's Retry-After when it asks for longer than the backoff", () => {
    const d = decideAfterFailure(run({ error: new ProviderError('unavailable', 'busy', { retryAfterMs: 30_000 }) }), even);
    expect(d).toMatchObject({ action: 'retry', waitMs: 30_000 });
  });

  it('turns a run stopped at its time limit into a retryable timeout naming the limit', () => {
    const d = decideAfterFailure(run({ timedOut: true, error: new Error('ignored'), runLimitMs: 1500 }), even);
    expect(d.action).toBe('retry');
    expect(d.failure).toBeInstanceOf(ProviderError);
    expect(d.text).toBe('ProviderError: no answer within 1500 ms');
  });

  it('fails for good once the next run would start past the deadline', () => {
    const d = decideAfterFailure(run({ error: new ProviderError('timeout', 'late'), deadline: '2030-01-01T00:00:00.500Z' }), even);
    expect(d).toMatchObject({ action: 'fail', unexpected: false, text: 'ProviderError: late' });
  });

  it('retries when the next run starts exactly at the deadline', () => {
    const d = decideAfterFailure(run({ error: new ProviderError('timeout', 'late'), deadline: '2030-01-01T00:00:01.000Z' }), even);
    expect(d.action).toBe('retry');
  });

  it('fails a provider error that is not worth retrying, as an expected failure', () => {
    const error = new ProviderError('safety', 'no');
    const d = decideAfterFailure(run({ error }), even);
    expect(d).toEqual({ action: 'fail', failure: error, text: 'ProviderError: no', unexpected: false });
  });

  it('fails any other error as unexpected, and words a thrown non-error', () => {
    expect(decideAfterFailure(run({ error: new TypeError('bad') }), even)).toMatchObject({
      action: 'fail',
      text: 'TypeError: bad',
      unexpected: true,
    });
    expect(decideAfterFailure(run({ error: 'plain' }), even)).toMatchObject({ action: 'fail', text: 'plain', unexpected: true });
  });

  it("retries the engine's own retry signal after the backoff, and fails it as expected once the budget is spent", () => {
    const outage = databaseOutage(Object.assign(new Error('Connection terminated'), { code: '57P01' }));
    expect(outage).toBeInstanceOf(RetryableJobError);
    expect(decideAfterFailure(run({ error: outage, attempts: 2 }), even)).toMatchObject({
      action: 'retry',
      waitMs: 2000,
      text: 'RetryableJobError: the database did not answer: Connection terminated',
    });
    const waited = new RetryableJobError('later', { retryAfterMs: 20_000 });
    expect(decideAfterFailure(run({ error: waited }), even)).toMatchObject({ action: 'retry', waitMs: 20_000 });
    expect(decideAfterFailure(run({ error: outage, deadline: '2030-01-01T00:00:00.500Z' }), even)).toMatchObject({
      action: 'fail',
      failure: outage,
      unexpected: false,
    });
  });
});

describe('failureKind', () => {
  it("names a provider's failure by its kind, a retried outage as unavailable, and the rest internal", () => {
    expect(failureKind(new ProviderError('quota', 'spent'))).toBe('quota');
    expect(failureKind(databaseOutage(new Error('gone')))).toBe('unavailable');
    expect(failureKind(new TypeError('bad'))).toBe('internal');
    expect(failureKind('plain')).toBe('internal');
  });
});
