// When to try the outbox again after a server error while online (5xx, 408, 429): the product's
// one retry policy (lib/retry): growing, jittered waits from about 1 s to 60 s, never shorter
// than the server's Retry-After, and after about ten minutes of failing it stops and says so; the
// changes stay queued and go out on the next reconnect, sign-in or change.
import { planRetry, type RetryStreak } from '../retry/retry-policy';

export interface RetrySchedule {
  /** Plans the next attempt (replacing a planned one); returns the wait in ms, or null once the budget is spent. */
  schedule(retryAfterMs?: number): number | null;
  /** It worked: the next failure starts again from the shortest wait. */
  reset(): void;
  /** Drops a planned attempt (logout, offline: the reconnect replays instead). */
  cancel(): void;
  readonly planned: boolean;
}

export interface RetryScheduleOptions {
  random?: () => number;
  now?: () => number;
  /** The budget is spent: automatic retries stop until the next reset. */
  onGiveUp?(streak: RetryStreak): void;
}

export function createRetrySchedule(run: () => void, options: RetryScheduleOptions = {}): RetrySchedule {
  const now = options.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let streak: RetryStreak | undefined;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    schedule(retryAfterMs) {
      cancel();
      const decision = planRetry(streak, now(), { retryAfterMs, random: options.random });
      if (decision.kind === 'give-up') {
        streak = undefined;
        options.onGiveUp?.(decision.streak);
        return null;
      }
      streak = decision.streak;
      timer = setTimeout(() => {
        timer = null;
        run();
      }, decision.delayMs);
      return decision.delayMs;
    },
    reset() {
      cancel();
      streak = undefined;
    },
    cancel,
    get planned() {
      return timer !== null;
    },
  };
}
