// What the generation jobs tell a batch that drives them (collection mode) when a stage of theirs
// ends. Each hook runs INSIDE the transaction of the job's final row move, so the next stage is
// queued (or the batch's item marked) together with that move: a crash leaves both or neither.
// A hook does nothing for a row that belongs to no batch, so the workflow's own requests, images
// and videos behave exactly as without it.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FailureColumns } from './store/generation-tables.js';

export type StageFailure = FailureColumns;

/** What a hook tells once the transaction committed (its progress events: readers then find the rows moved). */
export type AfterCommit = () => void;

export interface StageEnds {
  /**
   * The analysis is saved and the candidate rows made. True when the request belongs to a batch:
   * the hook queued its candidates (or holds them while the batch is paused) and the analysis job
   * queues nothing itself; null for the workflow's own request.
   */
  analysed(trx: Transaction<Database>, requestId: number): Promise<AfterCommit | null>;
  /** The request failed (its analysis, or its candidates with none made). */
  requestFailed(trx: Transaction<Database>, requestId: number, failure: StageFailure): Promise<AfterCommit>;
  /** The request completed with its candidates (some may have failed). */
  candidatesDone(trx: Transaction<Database>, requestId: number): Promise<AfterCommit>;
  /** True while a batch's item waits for this image's video prompts (its run is still wanted). */
  promptsAwaited(imageId: number): Promise<boolean>;
  /** The image's video prompts were written. */
  videoPromptsReady(trx: Transaction<Database>, imageId: number): Promise<AfterCommit>;
  videoPromptsFailed(trx: Transaction<Database>, imageId: number, failure: StageFailure): Promise<AfterCommit>;
  videoDone(trx: Transaction<Database>, videoId: number): Promise<AfterCommit>;
  videoFailed(trx: Transaction<Database>, videoId: number, failure: StageFailure): Promise<AfterCommit>;
  /**
   * How far a running stage is (0..100): a request's candidates saved so far, a video's render.
   * Told outside any transaction and never waited for: a batch's progress bar only.
   */
  progress(row: { requestId: number } | { videoId: number }, progress: number): void;
}
