// Runs one piece of work (a generation call, an upload of model or pattern images) under the
// product's retry policy: transient failures are tried again after the policy's growing waits,
// the caller is told of each wait ("retrying in 8 s"), and after the time budget the last error
// is thrown as RetryGaveUp so the page can ask the person. Cancelling stops the waiting at once.
import { planRetry, type RetryOptions, type RetryStreak } from './retry-policy';
import { transientFailure, type TransientFailure } from './transient-failure';

export class RetryGaveUp extends Error {
  override readonly name = 'RetryGaveUp';

  constructor(
    readonly lastError: unknown,
    readonly streak: RetryStreak,
  ) {
    super(lastError instanceof Error ? lastError.message : String(lastError));
  }
}

export interface WithRetryOptions extends Omit<RetryOptions, 'retryAfterMs'> {
  signal?: AbortSignal;
  /** Which failures to try again (default: network, 408, 429, 5xx). */
  classify?(error: unknown): TransientFailure | null;
  /** Told before each wait, with when the next attempt starts. */
  onRetry?(streak: RetryStreak, error: unknown): void;
  now?(): number;
  /** Waits `ms` or until the signal aborts (tests pass a fake). */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

export async function withRetry<T>(attempt: (signal?: AbortSignal) => Promise<T>, options: WithRetryOptions = {}): Promise<T> {
  const classify = options.classify ?? transientFailure;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  let streak: RetryStreak | undefined;
  for (;;) {
    try {
      return await attempt(options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const transient = classify(error);
      if (!transient) throw error;
      const decision = planRetry(streak, now(), { ...options, retryAfterMs: transient.retryAfterMs });
      if (decision.kind === 'give-up') throw new RetryGaveUp(error, decision.streak);
      streak = decision.streak;
      options.onRetry?.(streak, error);
      await sleep(decision.delayMs, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
