// A collection's lookbook ZIP: the chosen images and videos, each fetched and written into the
// archive chunk by chunk as it arrives (fflate's streaming Zip, stored: images and MP4s are
// compressed already), so no file is held whole before it is packed. Runs in zip.worker.ts; uses
// only fetch, Blob, AbortSignal and fflate.
import { Zip, ZipPassThrough } from 'fflate';

export interface LookbookEntry {
  /** The file's name inside the archive (lib/collections/naming-template.ts). */
  name: string;
  url: string;
}

export interface LookbookAuth {
  /** The session's bearer token, sent only to the API's own origin (a storage host's signed link must not get it). */
  token: string | null;
  apiOrigin: string;
}

export interface LookbookProgress {
  entriesDone: number;
  entriesTotal: number;
  bytes: number;
}

export interface BuildLookbookOptions {
  signal?: AbortSignal;
  onProgress?: (progress: LookbookProgress) => void;
  fetchFile?: typeof fetch;
  mtime?: Date;
}

/** A file the server would not give: its name in the archive and the HTTP status. */
export class LookbookFetchError extends Error {
  override readonly name = 'LookbookFetchError';

  constructor(
    readonly entry: string,
    readonly status: number,
  ) {
    super(`${entry}: HTTP ${status}`);
  }
}

/** Output is folded into a Blob every few MB: a Blob may live outside the worker's heap, an array of chunks may not. */
const FOLD_BYTES = 8 * 1024 * 1024;

function headersFor(url: string, auth: LookbookAuth): HeadersInit {
  try {
    const base = auth.apiOrigin || 'http://invalid.invalid';
    const same = new URL(url, base).origin === new URL(base).origin;
    return same && auth.token ? { Authorization: `Bearer ${auth.token}` } : {};
  } catch {
    return {};
  }
}

export async function buildLookbookZip(
  entries: readonly LookbookEntry[],
  auth: LookbookAuth,
  options: BuildLookbookOptions = {},
): Promise<Blob> {
  const { signal, onProgress, mtime } = options;
  const fetchFile = options.fetchFile ?? fetch;
  signal?.throwIfAborted();

  const parts: Blob[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let failure: unknown = null;
  const fold = () => {
    if (!pending.length) return;
    // fflate's chunks are fresh Uint8Arrays over plain ArrayBuffers, never shared memory.
    parts.push(new Blob(pending as Uint8Array<ArrayBuffer>[]));
    pending = [];
    pendingBytes = 0;
  };
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      failure ??= error;
      return;
    }
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= FOLD_BYTES || final) fold();
  });
  const check = () => {
    if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  };

  const progress: LookbookProgress = { entriesDone: 0, entriesTotal: entries.length, bytes: 0 };
  try {
    for (const entry of entries) {
      signal?.throwIfAborted();
      const response = await fetchFile(entry.url, { headers: headersFor(entry.url, auth), signal, credentials: 'omit' });
      if (!response.ok || !response.body) throw new LookbookFetchError(entry.name, response.status);
      const file = new ZipPassThrough(entry.name);
      if (mtime) file.mtime = mtime;
      zip.add(file);
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        signal?.throwIfAborted();
        if (done) break;
        file.push(value);
        progress.bytes += value.length;
        check();
        onProgress?.({ ...progress });
      }
      file.push(new Uint8Array(0), true);
      check();
      progress.entriesDone += 1;
      onProgress?.({ ...progress });
    }
    zip.end();
    check();
  } catch (error) {
    zip.terminate();
    throw error;
  }
  fold();
  return new Blob(parts, { type: 'application/zip' });
}
