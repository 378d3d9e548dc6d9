// Which failures are worth sending the same work again for: no answer at all, a timeout, a
// server that is overloaded, restarting or behind a failing gateway. Anything else (a refusal, a
// bad request, no permission) would fail the same way again and goes to the person at once.
import { isApiError } from '../api/api-error';

export interface TransientFailure {
  /** The server's Retry-After, in ms, when it sent one. */
  retryAfterMs?: number;
}

export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The failure's retry hint when it is transient, else null. */
export function transientFailure(error: unknown): TransientFailure | null {
  if (!isApiError(error)) return null;
  if (error.kind === 'network') return {};
  const status = error.status ?? 0;
  if (!isTransientStatus(status)) return null;
  return error.retryAfterSeconds !== undefined ? { retryAfterMs: error.retryAfterSeconds * 1000 } : {};
}
