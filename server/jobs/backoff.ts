// Exponential backoff with jitter for retryable provider errors; the provider's own Retry-After
// wins when it asks for longer.
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000 };

/** Delay before run number `attempt + 1`, after `attempt` failed runs (1 → initialMs). */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  o: BackoffOptions,
  random: () => number = Math.random,
): number {
  const base = Math.min(o.maxMs, o.initialMs * 2 ** Math.max(0, attempt - 1));
  // ±20 %: jobs failing together do not come back together.
  const jittered = Math.round(base * (0.8 + 0.4 * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}
