// GET /user/video-generations/events?ids=: the running videos' progress as an event stream
// (`video` with the whole item, `progress` with id, status and percent, `complete` at the end).
// fetch, not axios, to read the streamed body. A 401 or a cut stream just ends it: the list's
// own refresh takes over.
import { currentLanguage, i18n } from '../../../i18n/i18n';
import { loadRuntimeConfig } from '../../../lib/api';
import { readEventStream, type StreamOutcome } from '../../../lib/api/event-stream';
import type { Translate } from '../../../lib/api/translate';
import { getSession } from '../../../lib/session/session-store';
import type { ApiSchema } from '../../../lib/api/api-types';

/** The stream's events as the server's schema says (generated API types). */
export type VideoEvent = ApiSchema<'VideoEvent'>;

const t: Translate = (key, options) => i18n.t(key, options);

export async function followVideoEvents(
  ids: readonly number[],
  onEvent: (event: VideoEvent) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const runtime = await loadRuntimeConfig();
  const headers = new Headers({ Accept: 'text/event-stream', 'Accept-Language': currentLanguage() });
  const token = getSession().token;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(`${runtime.api.main}/user/video-generations/events?ids=${ids.join(',')}`, {
    headers,
    signal,
    credentials: 'omit',
  });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  return readEventStream<VideoEvent>(response.body, {
    onEvent,
    isFinal: (event) => event.type === 'complete',
    signal,
    t,
  });
}
