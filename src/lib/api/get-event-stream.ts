// GETs an event stream of the main backend (bearer token, Accept-Language) and hands each `data:`
// JSON event to the caller: progress streams that are read, not posted (video progress).
import { currentLanguage, i18n } from '../../i18n/i18n';
import { getSession } from '../session/session-store';
import { ApiError } from './api-error';
import { API_GROUPS, type ApiGroup } from './api-groups';
import { readEventStream, type StreamOutcome } from './event-stream';
import { normalizeError } from './normalize-error';
import { loadRuntimeConfig } from './runtime-config';
import type { Translate } from './translate';

const t: Translate = (key, options) => i18n.t(key, options);

export interface GetEventStreamOptions<E> {
  group?: ApiGroup;
  path: string;
  onEvent: (event: E) => void;
  isFinal?: (event: E) => boolean;
  signal?: AbortSignal;
}

/** Resolves with how the stream ended; a cancelled stream resolves 'cancelled' and never rejects. */
export async function getEventStream<E>(options: GetEventStreamOptions<E>): Promise<StreamOutcome> {
  const spec = API_GROUPS[options.group ?? 'main'];
  if (options.signal?.aborted) return 'cancelled';
  try {
    const runtime = await loadRuntimeConfig();
    const headers = new Headers({ Accept: 'text/event-stream', 'Accept-Language': currentLanguage() });
    const token = getSession().token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const response = await fetch(`${runtime.api[spec.base]}${options.path}`, {
      headers,
      signal: options.signal,
      credentials: 'omit',
    });
    if (!response.ok) throw new ApiError('http', response.status, t('errors.httpStatus', { status: response.status }), response.status);
    if (!response.body) throw new ApiError('unknown', -1, t('errors.streamParse'));
    return await readEventStream(response.body, { onEvent: options.onEvent, isFinal: options.isFinal, signal: options.signal, t });
  } catch (error) {
    if (options.signal?.aborted) return 'cancelled';
    throw normalizeError(error, t);
  }
}
