// Thumbnails off the main thread: decode with createImageBitmap (resized while decoding) and
// encode on an OffscreenCanvas, so dropping 40 photos never stalls the page.
import * as Comlink from 'comlink';

export interface Thumbnail {
  thumb: Blob;
  width: number;
  height: number;
}

export interface ThumbnailApi {
  make(blob: Blob, maxEdge: number): Promise<Thumbnail>;
}

const api: ThumbnailApi = {
  async make(blob, maxEdge) {
    const full = await createImageBitmap(blob);
    const { width, height } = full;
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
    return { thumb, width, height };
  },
};

Comlink.expose(api);
