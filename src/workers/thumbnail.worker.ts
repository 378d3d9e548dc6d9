// Thumbnails off the main thread: decode with createImageBitmap (resized while decoding) and
// encode on an OffscreenCanvas, so dropping 40 photos never stalls the page. The full-size decode
// is also where the noise estimate reads its pixels, so each image is decoded once for both.
import * as Comlink from 'comlink';
import { estimateNoiseFromBitmap } from '../lib/noise/noise-estimate-blob';
import { toStoredNoise, type StoredNoise } from '../lib/noise/stored-noise';

export interface Thumbnail {
  thumb: Blob;
  width: number;
  height: number;
  /** Absent when the pixels could not be read (the thumbnail is still useful). */
  noise?: StoredNoise;
}

export interface ThumbnailApi {
  make(blob: Blob, maxEdge: number): Promise<Thumbnail>;
}

function safeNoise(bitmap: ImageBitmap): StoredNoise | undefined {
  try {
    return toStoredNoise(estimateNoiseFromBitmap(bitmap));
  } catch {
    return undefined;
  }
}

const api: ThumbnailApi = {
  async make(blob, maxEdge) {
    const full = await createImageBitmap(blob);
    const { width, height } = full;
    const noise = safeNoise(full);
    full.close();
    const scale = Math.min(1, maxEdge / Math.max(width, height));
    const w = Math.max(1, Math.round(width * scale));
    const h = Math.max(1, Math.round(height * scale));
    const small = await createImageBitmap(blob, { resizeWidth: w, resizeHeight: h, resizeQuality: 'medium' });
    const canvas = new OffscreenCanvas(w, h);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    ctx.drawImage(small, 0, 0);
    small.close();
    const thumb = await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
    return { thumb, width, height, noise };
  },
};

Comlink.expose(api);
