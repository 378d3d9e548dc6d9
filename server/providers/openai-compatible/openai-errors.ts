// OpenAI-compatible failures as ProviderErrors. The SDK raises APIError subclasses by HTTP status
// with the body's `error` object ({message, type, code}); a mid-stream `data: {"error": …}` event
// arrives as an APIError without a status. OpenAI answers an exhausted balance with 429 too: its
// code `insufficient_quota` tells it apart from a rate limit. Retry-After / retry-after-ms are
// passed on as retryAfterMs; retrying is the job runner's (the client has maxRetries 0).
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { ProviderError } from '../capabilities.js';
import { isAbortError } from '../shared/abort.js';
import { retryAfterFromHeaders } from '../shared/retry-after.js';

const PROVIDER = 'openai';

const SAFETY_CODES = new Set(['content_policy_violation', 'moderation_blocked', 'content_filter', 'image_generation_user_error']);

export function toOpenAiError(error: unknown, signal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted || error instanceof APIUserAbortError) return new ProviderError('cancelled', 'cancelled', { provider: PROVIDER, cause: error });
  if (error instanceof APIConnectionTimeoutError || isAbortError(error)) {
    return new ProviderError('timeout', 'the OpenAI-compatible endpoint did not answer in time', { provider: PROVIDER, cause: error });
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError('unavailable', `cannot reach the OpenAI-compatible endpoint: ${causeOf(error)}`, { provider: PROVIDER, cause: error });
  }
  if (error instanceof APIError) return fromApiError(error);
  // The SDK's "malformed server-sent event JSON", a body that is not JSON.
  if (error instanceof SyntaxError || error instanceof OpenAIError) {
    return new ProviderError('bad_response', `the OpenAI-compatible endpoint's answer could not be read: ${error.message}`, { provider: PROVIDER, cause: error });
  }
  if (error instanceof TypeError) {
    return new ProviderError('unavailable', `the connection to the OpenAI-compatible endpoint failed: ${error.message}`, { provider: PROVIDER, cause: error });
  }
  return new ProviderError('bad_response', `unexpected failure: ${String(error)}`, { provider: PROVIDER, cause: error });
}

function fromApiError(error: APIError): ProviderError {
  const status = error.status;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const type = typeof error.type === 'string' ? error.type : undefined;
  const message = `OpenAI-compatible endpoint: ${bodyMessage(error)}`;
  const options = { provider: PROVIDER, status, cause: error, retryAfterMs: retryAfterFromHeaders(error.headers) };
  if (code === 'insufficient_quota' || type === 'insufficient_quota' || status === 402) return new ProviderError('quota', message, options);
  if ((code && SAFETY_CODES.has(code)) || (type && SAFETY_CODES.has(type))) return new ProviderError('safety', message, options);
  if (status === 401 || status === 403) return new ProviderError('auth', message, options);
  if (status === 429 || code === 'rate_limit_exceeded') return new ProviderError('rate_limited', message, options);
  if (status === 408 || status === 504) return new ProviderError('timeout', message, options);
  if (status === undefined || status >= 500) return new ProviderError('unavailable', message, options);
  return new ProviderError('invalid_request', message, options);
}

function bodyMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return error.status ? `HTTP ${error.status}` : error.message;
}

function causeOf(error: Error): string {
  return error.cause instanceof Error ? error.cause.message : error.message;
}
