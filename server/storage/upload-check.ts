// The checks every generation upload passes before it is stored, like the upscale service's: the
// type from the file's first bytes (never the client's word), the size limit, and the header's
// dimensions against the pixel limit and the shape rule every group shares (image-shape.ts), so a
// decompression bomb, a sliver or a truncated file is refused with a clear 4xx naming the file
// instead of failing deep inside a provider.
import sharp from 'sharp';
import { AppError } from '../http/app-error.js';
import { imageShapeProblem, readImageHeader } from './image-shape.js';
import { sniffImageFormat } from '../../shared/images/image-types.js';

/** Width × height accepted for a generation upload: a 48 MP phone photo passes, a bomb does not. */
export const MAX_UPLOAD_PIXELS = 50_000_000;

export interface CheckedImage {
  mimeType: string;
  width: number;
  height: number;
}

export interface UploadLimits {
  maxBytes: number;
  maxPixels: number;
}

export async function checkUploadedImage(
  data: Buffer,
  name: string,
  limits: UploadLimits,
): Promise<CheckedImage> {
  if (data.length > limits.maxBytes) {
    throw new AppError(413, 'image_too_large', { vars: { name, mb: Math.round(limits.maxBytes / (1024 * 1024)) } });
  }
  const type = sniffImageFormat(data);
  if (!type) throw new AppError(415, 'unsupported_image_type', { vars: { name } });
  const header = await readImageHeader(data);
  if (!header) throw new AppError(422, 'image_corrupt', { vars: { name } });
  const { width, height } = header;
  if (width * height > limits.maxPixels) {
    throw new AppError(413, 'image_too_many_pixels', { vars: { name, max: limits.maxPixels } });
  }
  // Before any decode: a sliver's cost grows with its long side (a 1x40000 PNG of 933 bytes would
  // take a cover resize to 17.6 GB), whatever its pixel count.
  const shape = imageShapeProblem(width, height);
  if (shape?.problem === 'too_narrow') throw new AppError(422, 'image_too_narrow', { vars: { name, min: shape.min } });
  if (shape?.problem === 'too_elongated') throw new AppError(422, 'aspect_ratio_too_large', { vars: { name, max: shape.max } });
  // A header can be whole over truncated pixel data: decode it once, small, to be sure.
  try {
    await sharp(data, { limitInputPixels: limits.maxPixels, failOn: 'truncated' })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw new AppError(422, 'image_corrupt', { vars: { name } });
  }
  return { mimeType: `image/${type}`, width, height };
}
