// Gemini's retries: the shared bounded retry (shared/retry.ts) with RetryInfo's delay, which
// gemini-errors.ts reads into retryAfterMs.
import { DEFAULT_RETRY, retrying, type RetryOptions, type RetryPolicy } from '../shared/retry.js';

export { DEFAULT_RETRY, type RetryPolicy };

export function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal,
  options: Omit<RetryOptions, 'provider'> = {},
): Promise<T> {
  return retrying(attempt, policy, signal, { provider: 'gemini', ...options });
}
