// The one error type every call rejects with (spec §8's normalised error).
export type ApiErrorKind = 'http' | 'business' | 'network' | 'cancelled' | 'unknown';

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly kind: ApiErrorKind,
    /** Server code or HTTP status; 0 without a response, -1 for anything else. */
    readonly code: number,
    message: string,
    readonly status: number | undefined = undefined,
    readonly data: unknown = undefined,
    readonly fieldErrors: readonly FieldError[] = [],
    readonly retryAfterSeconds: number | undefined = undefined,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Cancelled work is reported as cancelled, never shown as a failure. */
export function isCancelled(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'cancelled';
}
