// The progress of one long piece of the workflow (analysis, regeneration, video prompts, videos)
// as the page shows it. Kept out of the draft: a reload opens the work's stream again instead.
import { isApiError } from '../../../lib/api';
import type { RetryStreak } from '../../../lib/retry/retry-policy';
import { RetryGaveUp } from '../../../lib/retry/with-retry';

export interface StreamState {
  running: boolean;
  progress: number;
  message: string;
  startedAt: number | null;
  retryInMs: number | null;
  error: string | null;
}

export const IDLE_RUN: StreamState = { running: false, progress: 0, message: '', startedAt: null, retryInMs: null, error: null };

/** A run just opened: its bar starts just above empty, so it reads as started before the first event. */
export function openingRun(message: string, now: number): StreamState {
  return { ...IDLE_RUN, running: true, progress: 1, message, startedAt: now };
}

/** The connection was cut and opens again when the retry delay ends (shown as at least a second). */
export function reconnectingRun(state: StreamState, streak: RetryStreak, message: string, now: number): StreamState {
  return { ...state, retryInMs: Math.max(1000, streak.nextAttemptAt - now), message };
}

/** What a failed run says: the error's own words (the last one when the retry budget ran out), or the fallback. */
export function failureMessage(error: unknown, fallback: string): string {
  const inner = error instanceof RetryGaveUp ? error.lastError : error;
  if (isApiError(inner) || inner instanceof Error) return inner.message || fallback;
  return fallback;
}
