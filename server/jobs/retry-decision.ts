// What becomes of a job run that failed (neither succeeded nor was cancelled or handed back): run
// again after a backoff (backoff.ts, or the provider's Retry-After when longer) while the job's
// budget lasts and the error is one of the engine's retry signals (retryable-error.ts: its own
// RetryableJobError, or a retryable provider error), else failed for good. One rule for both
// queues: the in-process runner (job-runner.ts) and team mode's pg-boss queue (pgboss/pgboss-queue.ts).
import { ProviderError } from '../providers/capabilities.js';
import { retryDelayMs, type BackoffOptions } from './backoff.js';
import { RetryableJobError } from './retryable-error.js';

export interface FailedRun {
  /** What the run threw; not read when it ran out of time. */
  error: unknown;
  /** The run was stopped at its time limit. */
  timedOut: boolean;
  /** That time limit, for the timeout's message. */
  runLimitMs: number;
  /** Runs of the job so far, this one included. */
  attempts: number;
  /** ISO time after which the job is not run again. */
  deadline: string;
  now: Date;
  backoff: BackoffOptions;
}

export type RetryDecision =
  | {
      action: 'retry';
      failure: ProviderError | RetryableJobError;
      /** The failure as the job's last_error keeps it. */
      text: string;
      waitMs: number;
      nextRunAt: Date;
    }
  | {
      action: 'fail';
      failure: unknown;
      text: string;
      /** Neither a provider's error nor a retry signal of the engine: a fault of ours, worth an error in the log. */
      unexpected: boolean;
    };

export function decideAfterFailure(run: FailedRun, random: () => number = Math.random): RetryDecision {
  const failure = run.timedOut ? new ProviderError('timeout', `no answer within ${run.runLimitMs} ms`) : run.error;
  const text = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
  if (failure instanceof RetryableJobError || (failure instanceof ProviderError && failure.retryable)) {
    const waitMs = retryDelayMs(run.attempts, failure.retryAfterMs, run.backoff, random);
    const nextRunAt = new Date(run.now.getTime() + waitMs);
    if (nextRunAt.toISOString() <= run.deadline) return { action: 'retry', failure, text, waitMs, nextRunAt };
  }
  return { action: 'fail', failure, text, unexpected: !(failure instanceof ProviderError || failure instanceof RetryableJobError) };
}
