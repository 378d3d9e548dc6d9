// Cuts the preview crop out of the source file as a PNG (lossless, so the models see exactly the
// pixels of the original, JPEG blocks included). Works in a page or a worker.
import type { CropRect } from './crop-rect';

export async function cropToPng(source: Blob, crop: CropRect): Promise<Blob> {
  const bitmap = await createImageBitmap(source, crop.x, crop.y, crop.size, crop.size);
  try {
    const canvas = new OffscreenCanvas(crop.size, crop.size);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('2d context unavailable');
    context.drawImage(bitmap, 0, 0);
    return await canvas.convertToBlob({ type: 'image/png' });
  } finally {
    bitmap.close();
  }
}
