// Decodes an image Blob and estimates its noise, off the main thread: createImageBitmap and
// OffscreenCanvas exist in workers (the thumbnail worker calls this), and only the centred
// analysis window is drawn, 1:1, so the JPEG block grid is kept.
import { ANALYSIS_SIZE, estimateNoise, type NoiseEstimate } from './noise-estimate';

/** From an already decoded, full-size bitmap (the thumbnail worker decodes once for both). */
export function estimateNoiseFromBitmap(bitmap: ImageBitmap, maxSize = ANALYSIS_SIZE): NoiseEstimate {
  const width = Math.min(bitmap.width, maxSize);
  const height = Math.min(bitmap.height, maxSize);
  const sx = Math.floor((bitmap.width - width) / 2 / 8) * 8;
  const sy = Math.floor((bitmap.height - height) / 2 / 8) * 8;
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('2d context unavailable');
  context.drawImage(bitmap, sx, sy, width, height, 0, 0, width, height);
  return estimateNoise(context.getImageData(0, 0, width, height), maxSize);
}

export async function estimateNoiseFromBlob(blob: Blob, maxSize = ANALYSIS_SIZE): Promise<NoiseEstimate> {
  const bitmap = await createImageBitmap(blob);
  try {
    return estimateNoiseFromBitmap(bitmap, maxSize);
  } finally {
    bitmap.close();
  }
}
