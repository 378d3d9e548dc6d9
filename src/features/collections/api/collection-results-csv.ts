// GET /collections/:id/results.csv?language=: the results sheet in the reader's language, fetched
// with the session's bearer token (one silent refresh on a refused token, as the app's client
// does) and saved as a file.
import { i18n } from '../../../i18n/i18n';
import { loadRuntimeConfig } from '../../../lib/api';
import { normalizeError, normalizeHttpFailure } from '../../../lib/api/normalize-error';
import { refreshSession } from '../../../lib/api/refresh-session';
import type { Translate } from '../../../lib/api/translate';
import { getSession } from '../../../lib/session/session-store';

const t: Translate = (key, options) => i18n.t(key, options);

async function get(url: string, signal?: AbortSignal): Promise<Response> {
  const token = getSession().token;
  return fetch(url, {
    headers: { Accept: 'text/csv', 'Accept-Language': i18n.language, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    credentials: 'omit',
    signal,
  });
}

/** The file name the server gives (Content-Disposition, filename* first), else the fallback. */
export function attachmentName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || fallback;
}

export async function fetchResultsCsv(id: number, language: string, signal?: AbortSignal): Promise<{ blob: Blob; fileName: string | null }> {
  try {
    const runtime = await loadRuntimeConfig();
    const url = `${runtime.api.main}/collections/${id}/results.csv?language=${encodeURIComponent(language)}`;
    let response = await get(url, signal);
    if (response.status === 401 && (await refreshSession())) response = await get(url, signal);
    if (!response.ok) {
      const body: unknown = await response.json().catch(() => null);
      throw normalizeHttpFailure(response.status, body, t, { path: url });
    }
    const blob = await response.blob();
    return { blob, fileName: attachmentName(response.headers.get('content-disposition'), '') || null };
  } catch (error) {
    throw normalizeError(error, t);
  }
}
