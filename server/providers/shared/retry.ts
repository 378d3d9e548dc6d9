// Retrying 429 and 503 (and other 5xx, a cut stream or an unreachable server) inside an adapter.
// Chosen over leaving it all to the job runner because one generation here is many requests (six
// candidate images): a rate limit on the fifth should cost one retried request after the server's
// own hint, not the four images already made. Bounded: a few attempts, each wait at most
// `maxWaitMs`; a longer requested delay, or the last failure, goes to the job runner as a
// ProviderError with retryAfterMs, which it honours.
import { ProviderError } from '../capabilities.js';
import { sleep } from './abort.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** The longest wait worth doing here; a server asking for more is left to the job runner. */
  maxWaitMs: number;
  /** Wait before the first retry when the server names none (doubling after). */
  fallbackWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, maxWaitMs: 20_000, fallbackWaitMs: 2_000 };

export interface RetryOptions {
  provider: string;
  /** False: this failure goes to the caller as it is. */
  mayRetry?: () => boolean;
  /** Called just before another attempt starts (a stream tells its reader to drop what it showed). */
  onRetry?: (error: ProviderError) => void;
}

export async function retrying<T>(attempt: () => Promise<T>, policy: RetryPolicy, signal: AbortSignal, options: RetryOptions): Promise<T> {
  for (let tried = 0; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const retryable = error.kind === 'rate_limited' || error.kind === 'unavailable';
      if (!retryable || tried >= policy.retries || !(options.mayRetry?.() ?? true)) throw error;
      const wait = error.retryAfterMs ?? policy.fallbackWaitMs * 2 ** tried;
      if (wait > policy.maxWaitMs) throw error;
      await sleep(wait, signal, options.provider);
      options.onRetry?.(error);
    }
  }
}
