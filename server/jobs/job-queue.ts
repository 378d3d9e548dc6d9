// The small interface the generation and workshop modules use for long work. Today it is the
// database-backed runner in this process (job-runner.ts); a distributed queue can take its place
// behind the same four calls.

export interface EnqueueRequest {
  kind: string;
  /** The row the job works on. */
  refId: number;
  userId?: number;
  /** What the run needs beyond its row (kept as JSON with the job). */
  params?: Record<string, unknown>;
  /** Retries stop once this much time has passed since enqueueing (defaults to the runner's budget). */
  budgetMs?: number;
}

/** What a job tells the streams watching it; topics are the modules' own ("request:12", "video:5"). */
export type ProgressListener = (event: Record<string, unknown>) => void;

export type CancelOutcome = 'cancelled' | 'requested' | 'not_running';

export interface JobQueue {
  /**
   * Refuses more work from a user before any row is made for it: throws QueueFullError (a 429 with
   * Retry-After, see fair-share.ts) when the user's waiting jobs of this kind's class plus `count`
   * would pass the per-user cap. Routes call it before creating the rows their jobs work on; a
   * job that enqueues its own next step does not. A check, not a reservation: two calls at the
   * same moment may both pass it.
   */
  admit(userId: number, kind: string, count?: number): Promise<void>;
  enqueue(request: EnqueueRequest): Promise<number>;
  /** Cancels the unfinished job of a row: at once when it waits, by aborting it when it runs. */
  cancel(kind: string, refId: number): Promise<CancelOutcome>;
  /** True when the row has a job that has not finished. */
  isActive(kind: string, refId: number): Promise<boolean>;
  onProgress(topic: string, listener: ProgressListener): () => void;
  publish(topic: string, event: Record<string, unknown>): void;
}
