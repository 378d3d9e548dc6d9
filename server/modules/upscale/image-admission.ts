// Cheap checks on an uploaded image before it may wait in the queue: the type from its magic
// bytes, then its header (dimensions) against the pixel limit and the shape limits, so a
// decompression bomb, a truncated header or a sliver of an image is refused at once instead of
// after a wait. The engine checks the pixels again in full. The shape rule is storage/image-shape.ts,
// the one every group's uploads pass.
import { imageShapeProblem, readImageHeader } from '../../storage/image-shape.js';
import { sniffImageFormat, type ImageFormat } from '../../../shared/images/image-types.js';
import { UpscaleHttpError } from './upscale-http-error.js';

export interface AdmittedImage {
  type: ImageFormat;
  width: number;
  height: number;
}

export async function admitImage(data: Buffer, maxPixels: number): Promise<AdmittedImage> {
  const type = sniffImageFormat(data);
  if (!type) throw new UpscaleHttpError(415, 'unsupported_type');
  const header = await readImageHeader(data);
  if (!header) throw new UpscaleHttpError(422, 'corrupt_image');
  const { width, height } = header;
  if (width * height > maxPixels) throw new UpscaleHttpError(413, 'too_many_pixels', { max: maxPixels });
  const shape = imageShapeProblem(width, height);
  if (shape?.problem === 'too_narrow') throw new UpscaleHttpError(422, 'image_too_narrow', { min: shape.min });
  if (shape?.problem === 'too_elongated') throw new UpscaleHttpError(422, 'aspect_ratio_too_large', { max: shape.max });
  return { type, width, height };
}
