// The files of a page's multipart call, sent ahead as resumable uploads where the server speaks
// tus: the call then carries `<field>_upload_id` text fields in their place. Each attempt resumes
// what an earlier one left (the upload URL is kept beside the Blob for this page's life), and a
// failure is thrown as the call's own would be (a cut as a network failure), so the caller's
// retry policy (lib/retry, withRetry) waits and sends again: one policy, no retries of tus's own.
import { i18n } from '../../i18n/i18n';
import { ApiError } from '../api/api-error';
import { refreshSession } from '../api/refresh-session';
import { loadRuntimeConfig, tusEndpoint } from '../api/runtime-config';
import { getSession } from '../session/session-store';
import { runTusAttempt, type UploadPurpose } from './tus-upload';

export interface FilePart {
  /** The multipart field the file would go in (`model_images`); its reference goes in `<field>_upload_id`. */
  field: string;
  blob: Blob;
  name: string;
}

interface Kept {
  url: string;
  /** Set once every byte is in. */
  id?: string;
  at: number;
}

/** A finished upload older than this is sent again rather than named (the server lets uploads lapse). */
const KEEP_FINISHED_MS = 60 * 60_000;
const kept = new WeakMap<Blob, Kept>();

/**
 * Uploads each file (in order) and gives the text fields that stand for them, or null where the
 * server has no tus endpoint (send the files in the call). Rejects with an ApiError.
 */
export async function uploadedFields(
  parts: readonly FilePart[],
  purpose: UploadPurpose,
  signal: AbortSignal,
): Promise<[string, string][] | null> {
  if (parts.length === 0) return null;
  const endpoint = tusEndpoint(await loadRuntimeConfig(), location.href);
  if (!endpoint) return null;
  const fields: [string, string][] = [];
  for (const part of parts) fields.push([`${part.field}_upload_id`, await uploadOne(endpoint, part, purpose, signal)]);
  return fields;
}

async function uploadOne(endpoint: string, part: FilePart, purpose: UploadPurpose, signal: AbortSignal, refreshed = false): Promise<string> {
  const previous = kept.get(part.blob);
  if (previous?.id && Date.now() - previous.at < KEEP_FINISHED_MS) return previous.id;
  const outcome = await runTusAttempt({
    endpoint,
    uploadUrl: previous?.id ? undefined : previous?.url,
    file: part.blob,
    size: part.blob.size,
    fileName: part.name,
    fileType: part.blob.type || 'application/octet-stream',
    purpose,
    token: () => getSession().token,
    signal,
    onUrl: (url) => kept.set(part.blob, { url, at: Date.now() }),
  });
  switch (outcome.kind) {
    case 'done':
      kept.set(part.blob, { url: outcome.url, id: outcome.id, at: Date.now() });
      return outcome.id;
    case 'aborted':
      throw new ApiError('cancelled', -1, i18n.t('errors.cancelled'));
    case 'network':
      throw new ApiError('network', 0, i18n.t('errors.network'));
    case 'http-error': {
      const { status } = outcome;
      // A refused token: one silent refresh, as the API client does, then the same attempt again.
      if (status === 401 && !refreshed && (await refreshSession())) return uploadOne(endpoint, part, purpose, signal, true);
      // Gone (expired): the next attempt starts a new upload. Locked or out of step: it resumes.
      if (status === 404 || status === 410) kept.delete(part.blob);
      if (status === 404 || status === 410 || status === 409 || status === 423) throw new ApiError('network', 0, i18n.t('errors.network'));
      const retryAfterSeconds = outcome.retryAfterMs !== undefined ? Math.ceil(outcome.retryAfterMs / 1000) : undefined;
      const code = typeof outcome.code === 'number' ? outcome.code : status;
      throw new ApiError('http', code, outcome.message || i18n.t('errors.network'), status, undefined, [], retryAfterSeconds);
    }
  }
}
