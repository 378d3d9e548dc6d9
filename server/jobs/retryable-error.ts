// The job engine's own signal for "run this job again after a wait": a failure that says nothing
// about the job's input and is likely to pass, such as the database restarting under a run. The
// engine retries it with the usual backoff while the job's budget lasts (retry-decision.ts), as it
// retries a provider's retryable error (ProviderError.retryable: rate limited, unavailable, timed
// out), the other signal it honours. Anything else ends the job.
import { ProviderError } from '../providers/capabilities.js';

export class RetryableJobError extends Error {
  override readonly name = 'RetryableJobError';

  constructor(
    message: string,
    readonly options: { retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }

  get retryAfterMs(): number | undefined {
    return this.options.retryAfterMs;
  }
}

/** The database did not answer a job's own reads or writes (a restart, a fail-over). */
export function databaseOutage(error: unknown, options: { keepCause?: boolean } = {}): RetryableJobError {
  const text = `the database did not answer: ${error instanceof Error ? error.message : String(error)}`;
  return new RetryableJobError(text, options.keepCause ? { cause: error } : {});
}

/**
 * The kind of failure a handler records and tells its watchers (error_code, a retrying event's
 * code): a provider's own kind; 'unavailable' for the engine's retryable failures, which are
 * passing outages; 'internal' for anything else.
 */
export function failureKind(error: unknown): string {
  if (error instanceof ProviderError) return error.kind;
  if (error instanceof RetryableJobError) return 'unavailable';
  return 'internal';
}
