// What a module registers for one kind of job. The runner claims the row, calls run() with an
// AbortSignal (cancel, shutdown or the run's time limit) and decides from what run() throws:
// a retry signal (retryable-error.ts: RetryableJobError, or a retryable ProviderError) waits and
// runs again within the job's budget, anything else ends in fail(). Handlers never mark their own
// rows failed on an abort: a shutdown must leave the row to be resumed by the next process.
import type { JobClass } from './fair-share.js';
import type { JobRow } from './job-table.js';

export interface JobContext {
  job: JobRow;
  signal: AbortSignal;
  /** 1 for the first run; a resumed or retried job counts on. */
  attempt: number;
  publish(topic: string, event: Record<string, unknown>): void;
}

export type FailReason = 'error' | 'cancelled';

export interface JobHandler {
  kind: string;
  /** The concurrency lane (the provider that does the work), looked up when the job is claimed. */
  lane(job: JobRow): string;
  /**
   * Interactive (default: a person watches its stream) or batch (videos, workshop items): batch
   * work never keeps interactive work from a slot (see fair-share.ts).
   */
  jobClass?: JobClass;
  /** Longest a single run may take before it is aborted and counted as a timeout. */
  timeoutMs: number;
  run(ctx: JobContext): Promise<void>;
  /** The job ended without success: mark its row so and tell the watchers. */
  fail(job: JobRow, error: unknown, reason: FailReason, publish: JobContext['publish']): Promise<void>;
  /** A retry waits `delayMs`: the row may say so. */
  retrying?(job: JobRow, error: unknown, delayMs: number, publish: JobContext['publish']): Promise<void>;
}
