// When to try the outbox again after a server error while online (5xx, 408, 429): growing
// waits, never shorter than the server's Retry-After, with a little jitter so the tablets of a
// whole trade-fair hall do not all come back in the same second.
export const RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000, 120_000] as const;
/** A Retry-After longer than this is capped: the user is waiting for their change. */
export const MAX_RETRY_DELAY_MS = 10 * 60 * 1000;
const JITTER = 0.2;

/** The wait before attempt `attempt` (0 = the first retry). */
export function retryDelay(attempt: number, retryAfterMs = 0, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)] as number;
  const jittered = Math.round(base * (1 + JITTER * random()));
  return Math.min(Math.max(jittered, retryAfterMs), MAX_RETRY_DELAY_MS);
}

export interface RetrySchedule {
  /** Plans the next attempt (replacing a planned one); returns the wait in ms. */
  schedule(retryAfterMs?: number): number;
  /** It worked: the next failure starts again from the shortest wait. */
  reset(): void;
  /** Drops a planned attempt (logout, offline: the reconnect replays instead). */
  cancel(): void;
  readonly planned: boolean;
}

export function createRetrySchedule(run: () => void, random: () => number = Math.random): RetrySchedule {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    schedule(retryAfterMs) {
      cancel();
      const delay = retryDelay(attempt, retryAfterMs, random);
      attempt += 1;
      timer = setTimeout(() => {
        timer = null;
        run();
      }, delay);
      return delay;
    },
    reset() {
      cancel();
      attempt = 0;
    },
    cancel,
    get planned() {
      return timer !== null;
    },
  };
}
