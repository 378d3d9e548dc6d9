// Cheap checks on an uploaded image before it may wait in the queue: the type from its magic
// bytes, then its header (dimensions) against the pixel limit and the shape limits, so a
// decompression bomb, a truncated header or a sliver of an image is refused at once instead of
// after a wait. The engine checks the pixels again in full.
import sharp from 'sharp';
import { sniffImageType, type SniffedType } from './image-type.js';
import { UpscaleHttpError } from './upscale-http-error.js';

export interface AdmittedImage {
  type: SniffedType;
  width: number;
  height: number;
}

/**
 * Shortest side accepted, in pixels. Every tile reads 18-19 px of context on each side, so a
 * side of a few pixels is nearly all context; below this there is nothing left to upscale.
 */
export const MIN_SIDE_PIXELS = 8;
/**
 * Longest side over shortest side accepted. A thin image fills its tiles with context instead of
 * pixels: a 100000x1 image took 12 times as long as a 316x316 one and a 4,000,000x1 one held the
 * engine for minutes. Within 32:1 an image at the pixel limit is still 362 px across, and tiles
 * as cheaply per pixel as a square one.
 */
export const MAX_ASPECT_RATIO = 32;

export async function admitImage(data: Buffer, maxPixels: number): Promise<AdmittedImage> {
  const type = sniffImageType(data);
  if (!type) throw new UpscaleHttpError(415, 'unsupported_type');
  let width: number;
  let height: number;
  try {
    // limitInputPixels: false — the header alone is read here and the limit is ours to report.
    const meta = await sharp(data, { limitInputPixels: false, failOn: 'none' }).metadata();
    width = meta.width ?? 0;
    // An animation's height counts every frame; the first frame is what gets upscaled.
    height = meta.pageHeight ?? meta.height ?? 0;
  } catch {
    throw new UpscaleHttpError(422, 'corrupt_image');
  }
  if (!width || !height) throw new UpscaleHttpError(422, 'corrupt_image');
  if (width * height > maxPixels) throw new UpscaleHttpError(413, 'too_many_pixels', { max: maxPixels });
  const shorter = Math.min(width, height);
  if (shorter < MIN_SIDE_PIXELS)
    throw new UpscaleHttpError(422, 'image_too_narrow', { min: MIN_SIDE_PIXELS });
  if (Math.max(width, height) > shorter * MAX_ASPECT_RATIO)
    throw new UpscaleHttpError(422, 'aspect_ratio_too_large', { max: MAX_ASPECT_RATIO });
  return { type, width, height };
}
