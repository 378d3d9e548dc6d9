// Kling's errors: an HTTP status plus a service `code` in the body ({code, message, request_id}).
// From Kling's error table: 1000-1004 authentication; 1100 account exception, 1101 arrears,
// 1102 resource pack used up or expired, 1103 no access to the resource; 1200-1203 bad request;
// 1300 platform policy, 1301 content safety, 1302 too fast, 1303 over the pack's concurrency,
// 1304 IP allow-list; 5000 server error, 5001 unavailable, 5002 server timeout.
import { ProviderError, type ProviderErrorKind } from '../capabilities.js';
import { retryAfterFromHeaders } from '../shared/retry-after.js';

const PROVIDER = 'kling';

function kindOfCode(code: number): ProviderErrorKind | undefined {
  if (code >= 1000 && code <= 1004) return 'auth';
  if (code === 1100 || code === 1103 || code === 1304) return 'auth';
  if (code === 1101 || code === 1102) return 'quota';
  if (code >= 1200 && code <= 1203) return 'invalid_request';
  if (code === 1300 || code === 1301) return 'safety';
  if (code === 1302 || code === 1303) return 'rate_limited';
  if (code === 5002) return 'timeout';
  if (code === 5000 || code === 5001) return 'unavailable';
  return undefined;
}

function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status === 504) return 'timeout';
  if (status >= 500) return 'unavailable';
  if (status >= 400) return 'invalid_request';
  return 'bad_response';
}

/** Throws unless the reply is HTTP 2xx with code 0. */
export function checkKlingReply(status: number, headers: Headers, body: unknown): void {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; message?: unknown };
  const code = typeof envelope.code === 'number' ? envelope.code : undefined;
  if (status >= 200 && status < 300 && code === 0) return;
  const kind = (code !== undefined ? kindOfCode(code) : undefined) ?? kindOfStatus(status);
  const detail = typeof envelope.message === 'string' && envelope.message ? envelope.message : `HTTP ${status}`;
  throw new ProviderError(kind, `Kling: ${detail}${code !== undefined ? ` (${code})` : ''}`, {
    provider: PROVIDER,
    status,
    retryAfterMs: retryAfterFromHeaders(headers),
  });
}

/**
 * Why a task failed, from task_status_msg: Kling does not code these, so a message that speaks of
 * risk control, sensitive content or policy is taken as a safety refusal; anything else as the
 * service failing.
 */
export function taskFailure(message: unknown): ProviderError {
  const text = typeof message === 'string' && message ? message : 'the video task failed';
  const kind: ProviderErrorKind = /risk|sensitive|polic|safety|violat|inappropriate|prohibit/i.test(text) ? 'safety' : 'unavailable';
  return new ProviderError(kind, `Kling: ${text}`, { provider: PROVIDER });
}
