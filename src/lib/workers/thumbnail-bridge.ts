// Main-thread side of the thumbnail worker; the worker stops after 10 s without work.
import type { Thumbnail, ThumbnailApi } from '../../workers/thumbnail.worker';
import { createWorkerHandle } from './worker-handle';

const handle = createWorkerHandle<ThumbnailApi>(
  () => new Worker(new URL('../../workers/thumbnail.worker.ts', import.meta.url), { type: 'module', name: 'thumbnails' }),
  10_000,
);

export async function makeThumbnail(blob: Blob, maxEdge = 320): Promise<Thumbnail> {
  try {
    return await handle.get().make(blob, maxEdge);
  } finally {
    handle.touch();
  }
}
