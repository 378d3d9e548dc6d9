// MiniMax answers most failures with HTTP 200 and base_resp.status_code ≠ 0. The documented
// codes: 1002 rate limit, 1004 authentication, 1008 insufficient balance, 1026 sensitive input,
// 1027 sensitive output, 2013 invalid parameters (and 1000/1013 server errors, 1001 timeout,
// 1039 token rate limit, 2049 invalid API key). Codes not listed are 'bad_response'.
import { ProviderError, type ProviderErrorKind } from '../capabilities.js';

const PROVIDER = 'minimax';

const KIND_BY_CODE: Record<number, ProviderErrorKind> = {
  1000: 'unavailable',
  1001: 'timeout',
  1002: 'rate_limited',
  1004: 'auth',
  1008: 'quota',
  1013: 'unavailable',
  1026: 'safety',
  1027: 'safety',
  1039: 'rate_limited',
  2013: 'invalid_request',
  2049: 'auth',
};

export interface BaseResp {
  status_code?: number;
  status_msg?: string;
}

export function baseRespOf(body: unknown): BaseResp | undefined {
  const base = (body as { base_resp?: unknown } | undefined)?.base_resp;
  return typeof base === 'object' && base !== null ? (base as BaseResp) : undefined;
}

/** The error a non-zero base_resp stands for; undefined for success. */
export function baseRespError(base: BaseResp | undefined): ProviderError | undefined {
  const code = base?.status_code;
  if (code === undefined || code === 0) return undefined;
  const kind = KIND_BY_CODE[code] ?? 'bad_response';
  return new ProviderError(kind, `MiniMax: ${base?.status_msg || 'error'} (${code})`, { provider: PROVIDER });
}

/** Throws for an HTTP error status or a non-zero base_resp. */
export function checkMinimaxReply(status: number, body: unknown): void {
  const fromBase = baseRespError(baseRespOf(body));
  if (fromBase) throw fromBase;
  if (status >= 200 && status < 300) return;
  const message = `MiniMax answered HTTP ${status}`;
  if (status === 401 || status === 403) throw new ProviderError('auth', message, { provider: PROVIDER, status });
  if (status === 429) throw new ProviderError('rate_limited', message, { provider: PROVIDER, status });
  if (status >= 500) throw new ProviderError('unavailable', message, { provider: PROVIDER, status });
  throw new ProviderError('invalid_request', message, { provider: PROVIDER, status });
}
