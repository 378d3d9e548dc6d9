// The state machines of the rows the generation and workshop jobs write. A row's state changes
// only through a guarded write, UPDATE … WHERE id = ? AND status IN (the states the table allows
// the move from), so a write that lost a race changes nothing: a job that kept running after its
// cancel was settled can never bring a cancelled (failed) or finished row back to running.
// A move to the same state ("generating" → "generating") is how a job writes progress while its
// row still runs; a move the table does not list never happens.
import type { JobHandler } from '../../../jobs/job-handler.js';
import type { WorkshopStatus } from '../../workshop/workshop-table.js';
import type { GenerationStatus } from './generation-tables.js';

/** to-state → the states a row may be in for the move to apply. */
export type MoveTable<S extends string> = Readonly<Record<S, readonly S[]>>;

/** Analyse requests: a resend of a failed request starts it over (failed → pending). */
export const REQUEST_MOVES: MoveTable<GenerationStatus> = {
  pending: ['failed'],
  generating: ['pending', 'generating'],
  completed: ['generating'],
  failed: ['pending', 'generating'],
};

/**
 * Generated images (candidates and regenerate runs). A failed candidate runs again only after a
 * resend of its request reopened it (failed → pending). The model, known only at the end of a run,
 * is added to images already saved (completed → completed).
 */
export const IMAGE_MOVES: MoveTable<GenerationStatus> = {
  pending: ['failed'],
  generating: ['pending', 'generating'],
  completed: ['generating', 'completed'],
  failed: ['pending', 'generating'],
};

/** Video generations: a retry makes a new row, so failed and completed are final. */
export const VIDEO_MOVES: MoveTable<GenerationStatus> = {
  pending: [],
  generating: ['pending', 'generating'],
  completed: ['generating'],
  failed: ['pending', 'generating'],
};

/** Workshop items: a retry runs the same row again (completed or error → pending). */
export const WORKSHOP_MOVES: MoveTable<WorkshopStatus> = {
  pending: ['completed', 'error'],
  processing: ['pending', 'processing'],
  completed: ['processing'],
  error: ['pending', 'processing'],
};

/** The states a row may be in for a move to `to`; a copy, so a query cannot change the table. */
export function movableFrom<S extends string>(table: MoveTable<S>, to: S): S[] {
  return [...table[to]];
}

/**
 * Thrown by a job when a guarded write of its row did not apply: the row was cancelled or
 * finished by someone else meanwhile, so there is nothing left for the job to do.
 */
export class RowMovedOn extends Error {
  constructor(what: string) {
    super(`${what} moved on (cancelled or finished) while its job ran`);
    this.name = 'RowMovedOn';
  }
}

/** Throws RowMovedOn unless the guarded write applied. */
export function mustMove(applied: boolean, what: string): void {
  if (!applied) throw new RowMovedOn(what);
}

/** A job's run that stops without a word (and without failing its job) when its row moved on. */
export function stopsWhenRowMovesOn(run: JobHandler['run']): JobHandler['run'] {
  return async (ctx) => {
    try {
      await run(ctx);
    } catch (error) {
      if (error instanceof RowMovedOn) return;
      throw error;
    }
  };
}
