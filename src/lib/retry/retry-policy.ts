// The product's one retry policy for work it sends (upscale uploads, the prompt outbox, every
// generation call): after a failure, wait an exponentially growing, jittered delay (about 1 s up
// to 60 s, never less than the server's Retry-After), and ask the person only after a time budget
// of trying (about 10 minutes), never after a count of fast failures. Pure: clocks and random are
// passed in, so a worker, a page and a unit test all get the same answers.

export interface RetryPolicy {
  /** The wait after the first failure. */
  firstDelayMs: number;
  /** No computed wait is longer than this (a Retry-After may be). */
  maxDelayMs: number;
  /** How long a streak of failures may last before the person is asked. */
  budgetMs: number;
  /** Share of the delay that is random: 0.5 spreads a 4 s wait over 3–5 s. */
  jitter: number;
}

export const RETRY_POLICY: RetryPolicy = {
  firstDelayMs: 1_000,
  maxDelayMs: 60_000,
  budgetMs: 10 * 60_000,
  jitter: 0.5,
};

/** A run of failures of one piece of work: kept with the work, so a reload resumes it. */
export interface RetryStreak {
  /** When the first failure of the streak happened (ms since the epoch). */
  since: number;
  /** Failures so far in the streak. */
  failures: number;
  /** When the next attempt may start. */
  nextAttemptAt: number;
}

export interface RetryOptions {
  /** The server's Retry-After, in ms. */
  retryAfterMs?: number;
  random?: () => number;
  policy?: RetryPolicy;
}

/** The wait after the `failures`-th failure in a row (1 = the first). */
export function backoffDelay(failures: number, options: RetryOptions = {}): number {
  const policy = options.policy ?? RETRY_POLICY;
  const random = options.random ?? Math.random;
  const exponential = policy.firstDelayMs * 2 ** Math.max(0, Math.min(failures - 1, 30));
  const capped = Math.min(policy.maxDelayMs, exponential);
  // Spread around the nominal wait, so the tablets of a whole hall do not return in one second.
  const jittered = Math.round(capped * (1 - policy.jitter / 2 + policy.jitter * random()));
  const retryAfter = Math.min(options.retryAfterMs ?? 0, policy.budgetMs);
  return Math.max(Math.min(jittered, policy.maxDelayMs), retryAfter);
}

export type RetryDecision =
  | { kind: 'retry'; delayMs: number; streak: RetryStreak }
  | { kind: 'give-up'; streak: RetryStreak };

/** After a failure at `now`: when to try again, or that the budget is spent and the person decides. */
export function planRetry(previous: RetryStreak | undefined, now: number, options: RetryOptions = {}): RetryDecision {
  const policy = options.policy ?? RETRY_POLICY;
  const since = previous?.since ?? now;
  const failures = (previous?.failures ?? 0) + 1;
  if (now - since >= policy.budgetMs) return { kind: 'give-up', streak: { since, failures, nextAttemptAt: now } };
  const delayMs = backoffDelay(failures, options);
  return { kind: 'retry', delayMs, streak: { since, failures, nextAttemptAt: now + delayMs } };
}

/**
 * Something else got through (the connection works again): the next failure starts from the
 * shortest wait, and a long planned wait is brought forward. The budget's clock keeps running, so
 * work that alone keeps failing still reaches the person.
 */
export function easeAfterSuccess(streak: RetryStreak, now: number, options: RetryOptions = {}): RetryStreak {
  const soon = now + backoffDelay(1, { ...options, retryAfterMs: undefined });
  return { since: streak.since, failures: 0, nextAttemptAt: Math.min(streak.nextAttemptAt, soon) };
}

/** Time spent unable to try at all (no connection) is not time spent trying: move the clock on. */
export function pauseStreak(streak: RetryStreak, pausedMs: number): RetryStreak {
  return { ...streak, since: streak.since + Math.max(0, pausedMs) };
}

/** Whole seconds until the next attempt, for "retrying in 8 s". */
export function secondsUntil(streak: Pick<RetryStreak, 'nextAttemptAt'>, now: number): number {
  return Math.max(0, Math.ceil((streak.nextAttemptAt - now) / 1000));
}
