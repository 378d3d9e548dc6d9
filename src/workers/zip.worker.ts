// The batch ZIP is built here so reading 30 large Blobs and writing the archive never blocks the
// page. The page reaches it through src/lib/workers/zip-bridge.ts; cancelling terminates this worker.
import * as Comlink from 'comlink';
import {
  buildResultsZip,
  type ZipProgress,
  type ZipResultItem,
} from '../lib/zip/build-results-zip';

export type { ZipProgress, ZipResultItem };

export type ZipProgressListener = (progress: ZipProgress) => void;

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
      const remote = onProgress as Partial<Comlink.Remote<ZipProgressListener>> | undefined;
      remote?.[Comlink.releaseProxy]?.();
    }
  },
};

export type ZipWorkerApi = typeof api;

Comlink.expose(api);
