// The batch ZIP is built here so reading 30 large Blobs and writing the archive never blocks the
// page. The page reaches it through src/lib/workers/zip-bridge.ts; cancelling terminates this worker.
import * as Comlink from 'comlink';
import {
  buildLookbookZip,
  type LookbookAuth,
  type LookbookEntry,
  type LookbookProgress,
} from '../lib/zip/build-lookbook-zip';
import {
  buildResultsZip,
  type ZipProgress,
  type ZipResultItem,
} from '../lib/zip/build-results-zip';

export type { LookbookAuth, LookbookEntry, LookbookProgress, ZipProgress, ZipResultItem };

export type ZipProgressListener = (progress: ZipProgress) => void;
export type LookbookProgressListener = (progress: LookbookProgress) => void;

function release(listener: unknown): void {
  const remote = listener as Partial<Comlink.Remote<() => void>> | undefined;
  remote?.[Comlink.releaseProxy]?.();
}

const api = {
  /** Blobs arrive by structured clone (not transferred buffers), so the page keeps its copies. */
  async build(items: ZipResultItem[], onProgress?: ZipProgressListener): Promise<Blob> {
    let lastPercent = -1;
    try {
      return await buildResultsZip(items, {
        onProgress: (progress) => {
          // One message per whole percent keeps the channel quiet on large batches.
          const percent = progress.totalBytes
            ? Math.floor((progress.processedBytes / progress.totalBytes) * 100)
            : 0;
          if (percent === lastPercent) return;
          lastPercent = percent;
          void onProgress?.(progress);
        },
      });
    } finally {
      release(onProgress);
    }
  },

  /** A collection's lookbook: the worker fetches each file and streams it into the archive. */
  async buildLookbook(entries: LookbookEntry[], auth: LookbookAuth, onProgress?: LookbookProgressListener): Promise<Blob> {
    let last = 0;
    let lastDone = -1;
    try {
      return await buildLookbookZip(entries, auth, {
        onProgress: (progress) => {
          // A message per file and at most one every 100 ms in between keeps the channel quiet.
          const now = Date.now();
          if (progress.entriesDone === lastDone && now - last < 100) return;
          last = now;
          lastDone = progress.entriesDone;
          void onProgress?.(progress);
        },
      });
    } finally {
      release(onProgress);
    }
  },
};

export type ZipWorkerApi = typeof api;

Comlink.expose(api);
