// Decodes an image Blob and estimates its noise, off the main thread: createImageBitmap and
// OffscreenCanvas exist in workers (the thumbnail or noise worker calls this), and only the
// centred analysis window is drawn, 1:1, so the JPEG block grid is kept.
import { ANALYSIS_SIZE, estimateNoise, type NoiseEstimate } from './noise-estimate';

export async function estimateNoiseFromBlob(blob: Blob, maxSize = ANALYSIS_SIZE): Promise<NoiseEstimate> {
  const bitmap = await createImageBitmap(blob);
  try {
    const width = Math.min(bitmap.width, maxSize);
    const height = Math.min(bitmap.height, maxSize);
    const sx = Math.floor((bitmap.width - width) / 2 / 8) * 8;
    const sy = Math.floor((bitmap.height - height) / 2 / 8) * 8;
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('2d context unavailable');
    context.drawImage(bitmap, sx, sy, width, height, 0, 0, width, height);
    return estimateNoise(context.getImageData(0, 0, width, height), maxSize);
  } finally {
    bitmap.close();
  }
}
