// How long the upscale work in hand will likely take: the one rule behind every queue_full answer
// and its Retry-After, over this process's engine slots (engine-slot-queue.ts) or over the live
// workers' slots of the team (team-upscale.ts).
import { UpscaleHttpError } from './upscale-http-error.js';

/** Until an image has been upscaled, the duration guessed for one. */
export const GUESSED_JOB_MS = 5_000;

/**
 * The expected length of one image: the median of the last finished ones. A median, because the
 * first job of a model also loads it, and one such outlier must not inflate the next estimates;
 * the guess counts only until a job has finished.
 */
export function expectedJobMs(recentDurationsMs: readonly number[]): number {
  if (recentDurationsMs.length === 0) return GUESSED_JOB_MS;
  const sorted = [...recentDurationsMs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface WorkInHand {
  waitingJobs: number;
  /** When each running image started (ms since the epoch). */
  runningSince: Iterable<number>;
  recentDurationsMs: readonly number[];
  /** Engine slots sharing the work. */
  slots: number;
  nowMs: number;
}

/**
 * Seconds until the work in hand is likely done: what is left of each running image plus one
 * expected image per waiting one, shared among the slots.
 */
export function retryAfterSeconds(w: WorkInHand): number {
  const expected = expectedJobMs(w.recentDurationsMs);
  let workMs = w.waitingJobs * expected;
  // An image past the expected length is taken to be about to finish.
  for (const began of w.runningSince) workMs += Math.max(0, expected - (w.nowMs - began));
  return Math.max(1, Math.ceil(workMs / Math.max(1, w.slots) / 1000));
}

/** The 503 queue_full refusal, with its Retry-After. */
export function queueFull(seconds: number): UpscaleHttpError {
  return new UpscaleHttpError(503, 'queue_full', { seconds }, { retryAfterSeconds: seconds });
}
