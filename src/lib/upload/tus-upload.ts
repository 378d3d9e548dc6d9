// One attempt at a resumable upload (tus 1.0, tus-js-client): it creates the upload or resumes it
// from the URL the caller kept, sends the file in chunks, and ends on success, on the first failure,
// or on abort. tus-js-client's own retries are off (retryDelays: null): the caller waits out the
// product's one retry policy (lib/retry) and calls again with the kept URL, which resumes from the
// server's offset. tus-js-client's localStorage URL store is off too: a worker has no localStorage,
// so the caller keeps the URL with its own work (the upscale queue's items in IndexedDB). An
// attempt cut after its bytes left asks the server's offset before it ends, so the caller knows
// whether it moved the upload on. Runs in a worker, on a page and in Node (the benchmark passes a
// Buffer there).
import { Upload, type DetailedError } from 'tus-js-client';
import { parseRetryAfterSeconds } from '../api/retry-after.js';

/** What the server is told the file is for (the contract's Upload-Metadata `purpose`). */
export type UploadPurpose = 'upscale' | 'analysis' | 'regenerate' | 'workshop' | 'collection';

/** A cut loses at most the chunk on the wire, and each PATCH is short enough to get through a fair's network. */
export const TUS_CHUNK_SIZE = 1024 * 1024;

/**
 * An attempt that moves no byte for this long is given up as a network failure, and the caller
 * resumes from the server's offset. A connection a roaming tablet left behind gets no reset and no
 * answer: without this, its file stayed at the same percentage until the page was closed. A chunk
 * on a slow link keeps moving, so it is never cut by this.
 */
export const TUS_STALL_MS = 30_000;

/** The longest an attempt cut on the wire waits to learn the server's offset (`serverOffset`). */
export const TUS_OFFSET_CHECK_MS = 5_000;

export interface TusAttempt {
  /** The tus endpoint (config.json `uploads.tus`, made absolute). */
  endpoint: string;
  /** The upload URL kept from an earlier attempt: resume it instead of creating a new upload. */
  uploadUrl?: string;
  /** A Blob in the browser; a Buffer in Node. */
  file: ConstructorParameters<typeof Upload>[0];
  size: number;
  fileName: string;
  fileType: string;
  purpose: UploadPurpose;
  /** Read before every request, so a refreshed token is used at once. */
  token(): string | null;
  chunkSize?: number;
  /** See TUS_STALL_MS. */
  stallMs?: number;
  signal: AbortSignal;
  /** The upload's URL is known (created, or resumed): keep it with the work, for the next attempt. */
  onUrl?(url: string): void;
  /** Bytes the server has (its Upload-Offset after each chunk, or on resume). */
  onAccepted?(bytes: number, total: number): void;
}

export type TusOutcome =
  | { kind: 'done'; url: string; id: string }
  /** The server answered with an error: 401, 413, 415, 422, 429, 5xx … */
  | { kind: 'http-error'; status: number; code: string | number; message: string; retryAfterMs?: number }
  /** No answer: the connection was cut, or the server cannot be reached. */
  | { kind: 'network'; message: string }
  | { kind: 'aborted' };

/** The upload id is the upload URL's last path segment (the contract). */
export function uploadIdOf(url: string): string {
  const path = new URL(url, 'http://base.invalid').pathname.replace(/\/+$/, '');
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

/** A failed attempt as the caller's retry policy sees it. */
export function tusFailure(error: Error): Exclude<TusOutcome, { kind: 'done' } | { kind: 'aborted' }> {
  const response = (error as Partial<DetailedError>).originalResponse;
  const status = response?.getStatus() ?? 0;
  if (!response || status === 0) return { kind: 'network', message: error.message };
  let code: string | number = status;
  let message = '';
  try {
    const body = JSON.parse(response.getBody() || '{}') as { code?: unknown; message?: unknown };
    if (typeof body.code === 'string' || typeof body.code === 'number') code = body.code;
    if (typeof body.message === 'string') message = body.message;
  } catch {
    message = response.getBody() ?? '';
  }
  const retryAfter = parseRetryAfterSeconds(response.getHeader('Retry-After') ?? undefined) ?? 0;
  return { kind: 'http-error', status, code, message, retryAfterMs: retryAfter > 0 ? retryAfter * 1000 : undefined };
}

/**
 * The server's offset for an upload (the tus HEAD), or undefined when it cannot be learnt in time.
 * tus-js-client asks this only when it resumes, so an attempt cut mid-PATCH does not know how many
 * of its bytes the server kept.
 */
async function serverOffset(
  url: string,
  token: string | null,
  signal: AbortSignal,
): Promise<number | undefined> {
  // A plain controller and timer, not AbortSignal.any: older tablet browsers lack it.
  const ask = new AbortController();
  const stop = () => ask.abort();
  const timer = setTimeout(stop, TUS_OFFSET_CHECK_MS);
  signal.addEventListener('abort', stop, { once: true });
  try {
    const headers: Record<string, string> = { 'Tus-Resumable': '1.0.0' };
    if (token) headers.Authorization = `Bearer ${token}`;
    // No cache option: tus servers send Cache-Control: no-store on a HEAD (the protocol says so).
    const response = await fetch(url, { method: 'HEAD', headers, signal: ask.signal });
    const offset = Number(response.headers.get('Upload-Offset') ?? NaN);
    return response.ok && Number.isFinite(offset) ? offset : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

/** Runs one attempt; never throws. */
export function runTusAttempt(attempt: TusAttempt): Promise<TusOutcome> {
  return new Promise<TusOutcome>((resolve) => {
    if (attempt.signal.aborted) return resolve({ kind: 'aborted' });
    let settled = false;
    let stall: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: TusOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(stall);
      attempt.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    /** The most the server is known to hold, and the most this attempt put on the wire. */
    let accepted = 0;
    let sent = 0;
    const onAccepted = (bytes: number) => {
      accepted = Math.max(accepted, bytes);
      attempt.onAccepted?.(bytes, attempt.size);
    };
    /**
     * A cut after bytes left the device: the server keeps what reached it, so ask it how much
     * (`serverOffset`). The caller then sees the attempt moved the upload on, and waits the shortest
     * delay instead of a failing streak's: after an outage, an attempt that gets a few hundred KB
     * through before a cut is progress, not a reason to wait a minute. In the outage itself the
     * same question answers "nothing new", and the streak grows as it should. A 409 asks too: the
     * browser resends a PATCH whose reused connection was reset, at the offset the cut one began
     * with, and the server, which kept the cut one's bytes, refuses that offset.
     */
    let ending = false;
    const failed = async (outcome: TusOutcome) => {
      if (ending) return;
      ending = true;
      clearTimeout(stall);
      const cut = outcome.kind === 'network' && sent > accepted;
      const offsetRefused = outcome.kind === 'http-error' && outcome.status === 409;
      if ((cut || offsetRefused) && upload.url && !attempt.signal.aborted) {
        const offset = await serverOffset(upload.url, attempt.token(), attempt.signal);
        if (!settled && offset !== undefined && offset > accepted) onAccepted(offset);
      }
      finish(attempt.signal.aborted ? { kind: 'aborted' } : outcome);
    };
    const stallMs = attempt.stallMs ?? TUS_STALL_MS;
    /** Any sign of life (a request sent, bytes out, an answer) starts the stall's clock again. */
    const alive = () => {
      clearTimeout(stall);
      if (settled || ending) return;
      stall = setTimeout(() => {
        void upload.abort(false).catch(() => {});
        void failed({
          kind: 'network',
          message: `the upload stalled: no bytes moved for ${Math.round(stallMs / 1000)} s`,
        });
      }, stallMs);
    };
    const upload: Upload = new Upload(attempt.file, {
      endpoint: attempt.endpoint,
      uploadUrl: attempt.uploadUrl ?? null,
      uploadSize: attempt.size,
      chunkSize: attempt.chunkSize ?? TUS_CHUNK_SIZE,
      metadata: { filename: attempt.fileName, filetype: attempt.fileType, purpose: attempt.purpose },
      retryDelays: null,
      storeFingerprintForResuming: false,
      removeFingerprintOnSuccess: false,
      onBeforeRequest(request) {
        alive();
        const token = attempt.token();
        if (token) request.setHeader('Authorization', `Bearer ${token}`);
      },
      onProgress(bytesSent) {
        alive();
        sent = Math.max(sent, bytesSent);
      },
      onAfterResponse(request, response) {
        alive();
        // A HEAD on resume tells how much the server already has: progress starts there.
        if (request.getMethod() !== 'HEAD' || response.getStatus() >= 300) return;
        const offset = Number(response.getHeader('Upload-Offset'));
        if (Number.isFinite(offset)) onAccepted(offset);
      },
      onUploadUrlAvailable() {
        if (upload.url) attempt.onUrl?.(upload.url);
      },
      onChunkComplete(_chunk, bytesAccepted) {
        onAccepted(bytesAccepted);
      },
      onSuccess() {
        const url = upload.url ?? '';
        onAccepted(attempt.size);
        finish({ kind: 'done', url, id: uploadIdOf(url) });
      },
      onError(error) {
        void failed(attempt.signal.aborted ? { kind: 'aborted' } : tusFailure(error));
      },
    });
    const onAbort = () => {
      void upload.abort(false).catch(() => {});
      finish({ kind: 'aborted' });
    };
    attempt.signal.addEventListener('abort', onAbort, { once: true });
    alive();
    upload.start();
  });
}
