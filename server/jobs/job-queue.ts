// The small interface the generation and workshop modules use for long work. Today it is the
// database-backed runner in this process (job-runner.ts); a distributed queue can take its place
// behind the same four calls.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobClass } from './fair-share.js';

export interface EnqueueRequest {
  kind: string;
  /** The row the job works on. */
  refId: number;
  userId?: number;
  /** What the run needs beyond its row (kept as JSON with the job). */
  params?: Record<string, unknown>;
  /** Retries stop once this much time has passed since enqueueing (defaults to the runner's budget). */
  budgetMs?: number;
  /**
   * Its fairness class, when not its kind's: a collection's analyses are queued as batch work,
   * so another person's analysis at the workflow page never waits behind them.
   */
  jobClass?: JobClass;
}

/** What a job tells the streams watching it; topics are the modules' own ("request:12", "video:5"). */
export type ProgressListener = (event: Record<string, unknown>) => void;

export interface EnqueueOptions {
  /** When given, the job is written in this transaction of the app database: no row without its job. */
  trx?: Transaction<Database>;
}

/**
 * What cancelling a row's job did: cancelled while it waited, asked to stop while it runs, or
 * nothing to cancel. (Not the upscale service's outcome of cancelling a keyed result.)
 */
export type JobCancelOutcome = 'cancelled' | 'requested' | 'not_running';

export interface JobQueue {
  /**
   * Refuses more work from a user before any row is made for it: throws QueueFullError (a 429 with
   * Retry-After, see fair-share.ts) when the user's waiting jobs of this kind's class plus `count`
   * would pass the per-user cap. Routes call it before creating the rows their jobs work on; a
   * job that enqueues its own next step does not. A check, not a reservation: two calls at the
   * same moment may both pass it.
   */
  admit(userId: number, kind: string, count?: number): Promise<void>;
  /**
   * Queues a job for a row (or answers the row's unfinished job). When `trx` is given the job is
   * written in that transaction, so no row is without its job: both are committed, or neither.
   * The transaction is over the app's base schema (`Transaction<Database>`, the type
   * `db.transaction()` of the app's Kysely gives); a caller that needs its module's tables widens
   * it with `trx.withTables<…>()` for its own writes and passes the base one here. A job queued in
   * a transaction is picked up once it commits (at the latest by the queue's next poll).
   */
  enqueue(request: EnqueueRequest, options?: EnqueueOptions): Promise<number>;
  /** Cancels the unfinished job of a row: at once when it waits, by aborting it when it runs. */
  cancel(kind: string, refId: number): Promise<JobCancelOutcome>;
  /** True when the row has a job that has not finished. */
  isActive(kind: string, refId: number): Promise<boolean>;
  onProgress(topic: string, listener: ProgressListener): () => void;
  publish(topic: string, event: Record<string, unknown>): void;
}
