// Gemini's failures as ProviderErrors. HTTP errors reach us as the SDK's ApiError whose message
// holds the google.rpc.Status JSON ({"error":{code,status,message,details}}); a mid-stream error
// arrives the same way ("got status: …. {json}"). The details say why: RetryInfo.retryDelay for
// when to come back, QuotaFailure for which quota, ErrorInfo.reason API_KEY_INVALID for a bad key
// (which Gemini answers with HTTP 400).
import { ApiError } from '@google/genai';
import { ProviderError } from '../capabilities.js';
import { isAbortError } from '../shared/abort.js';
import { durationToMs } from '../shared/retry-after.js';

const PROVIDER = 'gemini';

interface RpcStatus {
  code?: number;
  status?: string;
  message?: string;
  details?: Record<string, unknown>[];
}

export function toGeminiError(error: unknown, signal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted) return new ProviderError('cancelled', 'cancelled', { provider: PROVIDER, cause: error });
  // Not the caller's signal: the request's own time limit.
  if (isAbortError(error)) return new ProviderError('timeout', 'Gemini did not answer in time', { provider: PROVIDER, cause: error });
  if (error instanceof ApiError) return fromStatus(error.status, readRpcStatus(error.message), error);
  if (error instanceof TypeError || hasNetworkCode(error)) {
    return new ProviderError('unavailable', `cannot reach Gemini: ${messageOf(error)}`, { provider: PROVIDER, cause: error });
  }
  // The SDK's own complaints about what it read: unparsable chunks, a stream cut mid-JSON.
  return new ProviderError('bad_response', `Gemini's answer could not be read: ${messageOf(error)}`, { provider: PROVIDER, cause: error });
}

function fromStatus(httpStatus: number, rpc: RpcStatus, cause: unknown): ProviderError {
  const status = rpc.code ?? httpStatus;
  const message = `Gemini: ${rpc.message ?? rpc.status ?? `HTTP ${status}`}`;
  const options = { provider: PROVIDER, status, cause };
  const details = rpc.details ?? [];
  const reason = details.find((d) => typeOf(d) === 'ErrorInfo')?.reason;
  if (reason === 'API_KEY_INVALID' || status === 401 || status === 403) return new ProviderError('auth', message, options);
  if (status === 429) {
    const retryAfterMs = durationToMs(details.find((d) => typeOf(d) === 'RetryInfo')?.retryDelay);
    // A daily quota will not come back within the job runner's patience; a per-minute one will.
    if (perDayQuota(details)) return new ProviderError('quota', message, { ...options, retryAfterMs });
    return new ProviderError('rate_limited', message, { ...options, retryAfterMs });
  }
  if (status === 408 || status === 504 || rpc.status === 'DEADLINE_EXCEEDED') return new ProviderError('timeout', message, options);
  if (status >= 500) return new ProviderError('unavailable', message, options);
  if (rpc.status === 'FAILED_PRECONDITION' && /billing|free tier/i.test(rpc.message ?? '')) return new ProviderError('quota', message, options);
  return new ProviderError('invalid_request', message, options);
}

function perDayQuota(details: Record<string, unknown>[]): boolean {
  const failure = details.find((d) => typeOf(d) === 'QuotaFailure');
  const violations = Array.isArray(failure?.violations) ? (failure.violations as Record<string, unknown>[]) : [];
  return violations.length > 0 && violations.every((v) => /PerDay/i.test(String(v.quotaId ?? '')));
}

/** "type.googleapis.com/google.rpc.RetryInfo" → "RetryInfo" */
function typeOf(detail: Record<string, unknown>): string {
  return String(detail['@type'] ?? '').split('.').pop() ?? '';
}

/** The google.rpc.Status inside an ApiError's message, or {} when it holds none. */
function readRpcStatus(message: string): RpcStatus {
  const start = message.indexOf('{');
  if (start < 0) return {};
  try {
    const parsed: unknown = JSON.parse(message.slice(start));
    const error = (parsed as { error?: unknown }).error;
    if (typeof error !== 'object' || error === null) return {};
    const rpc = error as Record<string, unknown>;
    return {
      code: typeof rpc.code === 'number' ? rpc.code : undefined,
      status: typeof rpc.status === 'string' ? rpc.status : undefined,
      message: typeof rpc.message === 'string' ? rpc.message : undefined,
      details: Array.isArray(rpc.details) ? rpc.details.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null) : undefined,
    };
  } catch {
    return {};
  }
}

function hasNetworkCode(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(ECONN|ENOTFOUND|EAI_AGAIN|EPIPE|ETIMEDOUT|UND_ERR)/.test(code);
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message.slice(0, 200)}${cause}`;
}
