// One JSON request to a provider's HTTP API (MiniMax, Kling), with the caller's signal and a
// time limit. Transport trouble becomes a ProviderError here; what the JSON body means is left to
// the adapter, since each provider reports its errors in its own envelope.
import { ProviderError } from '../capabilities.js';
import { retryAfterFromHeaders } from './retry-after.js';

export interface JsonRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  signal: AbortSignal;
  timeoutMs: number;
  provider: string;
}

export interface JsonReply {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function fetchJson(request: JsonRequest): Promise<JsonReply> {
  const { provider } = request;
  const deadline = AbortSignal.timeout(request.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: { accept: 'application/json', ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.any([request.signal, deadline]),
    });
    text = await response.text();
  } catch (error) {
    if (request.signal.aborted) throw new ProviderError('cancelled', 'cancelled', { provider, cause: error });
    if (deadline.aborted) {
      throw new ProviderError('timeout', `${provider} did not answer within ${request.timeoutMs} ms`, { provider, cause: error });
    }
    throw new ProviderError('unavailable', `cannot reach ${provider}: ${describe(error)}`, { provider, cause: error });
  }
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch (error) {
    // A proxy's HTML error page or a truncated answer: judge it by its status alone.
    const status = response.status;
    const retryAfterMs = retryAfterFromHeaders(response.headers);
    if (status === 429) throw new ProviderError('rate_limited', `${provider} is rate limiting (HTTP 429)`, { provider, status, retryAfterMs });
    if (status >= 500) throw new ProviderError('unavailable', `${provider} answered HTTP ${status}`, { provider, status, retryAfterMs });
    if (status === 401 || status === 403) throw new ProviderError('auth', `${provider} refused the credentials (HTTP ${status})`, { provider, status });
    throw new ProviderError('bad_response', `${provider} answered HTTP ${status} with a body that is not JSON: ${snippet(text)}`, {
      provider,
      status,
      cause: error,
    });
  }
  return { status: response.status, headers: response.headers, body };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** The start of an unexpected body, for an error message. */
export function snippet(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
