// POSTs to a streaming endpoint (multipart or JSON, bearer token) and hands each `data:` JSON
// event to the caller. fetch, not axios: axios cannot expose a streamed body in the browser.
import { currentLanguage, i18n } from '../../i18n/i18n';
import { getSession } from '../session/session-store';
import { ApiError } from './api-error';
import { API_GROUPS, sendsBearerToken, type ApiGroup } from './api-groups';
import { expireSession } from './expire-session';
import { readEventStream, type StreamOutcome } from './event-stream';
import { normalizeError } from './normalize-error';
import { refreshSession } from './refresh-session';
import { loadRuntimeConfig } from './runtime-config';
import type { Translate } from './translate';

const t: Translate = (key, options) => i18n.t(key, options);

export interface PostEventStreamOptions<E> {
  group?: ApiGroup;
  path: string;
  body: FormData | Record<string, unknown>;
  onEvent: (event: E) => void;
  isFinal?: (event: E) => boolean;
  signal?: AbortSignal;
}

async function open(group: ApiGroup, path: string, body: FormData | Record<string, unknown>, signal: AbortSignal) {
  const spec = API_GROUPS[group];
  const runtime = await loadRuntimeConfig();
  const headers = new Headers({ Accept: 'text/event-stream', 'Accept-Language': currentLanguage() });
  if (group === 'third') headers.set('X-API-Version', 'v1');
  const token = getSession().token;
  if (token && sendsBearerToken(path)) headers.set('Authorization', `Bearer ${token}`);
  const multipart = body instanceof FormData;
  if (!multipart) headers.set('Content-Type', 'application/json;charset=UTF-8');
  return fetch(`${runtime.api[spec.base]}${path}`, {
    method: 'POST',
    headers,
    body: multipart ? body : JSON.stringify(body),
    signal,
    credentials: 'omit',
  });
}

async function httpFailure(response: Response): Promise<ApiError> {
  let message = '';
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // Not JSON: fall back to the status line below.
  }
  const text = message || t('errors.httpStatus', { status: response.status });
  return new ApiError('http', response.status, text, response.status);
}

/** Resolves with how the stream ended; a cancelled stream resolves 'cancelled' and never rejects. */
export async function postEventStream<E>(options: PostEventStreamOptions<E>): Promise<StreamOutcome> {
  const group = options.group ?? 'image';
  const controller = new AbortController();
  const cancel = () => controller.abort();
  if (options.signal?.aborted) return 'cancelled';
  options.signal?.addEventListener('abort', cancel, { once: true });
  const timer = setTimeout(cancel, API_GROUPS[group].timeout);
  const timedOut = () => controller.signal.aborted && !options.signal?.aborted;
  try {
    let response = await open(group, options.path, options.body, controller.signal);
    if (response.status === 401 && sendsBearerToken(options.path)) {
      if (await refreshSession()) response = await open(group, options.path, options.body, controller.signal);
      if (response.status === 401) {
        expireSession();
        throw new ApiError('http', 401, t('errors.unauthorized'), 401);
      }
    }
    if (!response.ok) throw await httpFailure(response);
    if (!response.body) throw new ApiError('unknown', -1, t('errors.streamParse'));
    const outcome = await readEventStream(response.body, {
      onEvent: options.onEvent,
      isFinal: options.isFinal,
      signal: controller.signal,
      t,
    });
    if (outcome === 'cancelled' && timedOut()) throw new ApiError('network', 0, t('errors.network'));
    return outcome;
  } catch (error) {
    if (options.signal?.aborted) return 'cancelled';
    if (timedOut()) throw new ApiError('network', 0, t('errors.network'));
    throw normalizeError(error, t);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}
