// The image rules every upload of ours must pass, as soon as its bytes allow: the type from the
// first bytes, then the header's dimensions (pixel limit, the shape rule of image-shape.ts) once the
// header is in, and at the end the whole file as every group checks a form's file
// (storage/upload-check.ts). A refusal here is a 422 naming the file, whatever the rule.
import { AppError } from '../../http/app-error.js';
import { imageShapeProblem, readImageHeader } from '../../storage/image-shape.js';
import { checkUploadedImage } from '../../storage/upload-check.js';
import { sniffImageFormat } from '../../../shared/images/image-types.js';

/** Bytes kept of an upload's start to read its header from while it passes (a JPEG's EXIF comes first). */
export const HEAD_BYTES = 64 * 1024;
/** Bytes that name a format (sniffImageFormat). */
const SNIFF_BYTES = 12;

/**
 * What the first `head.length` bytes already refuse, or undefined when they pass or cannot tell yet.
 * `complete` says the head is the whole file.
 */
export async function refuseHead(
  head: Buffer,
  name: string,
  maxPixels: number,
  complete: boolean,
): Promise<AppError | undefined> {
  if (head.length < SNIFF_BYTES && !complete) return undefined;
  if (!sniffImageFormat(head)) return new AppError(422, 'unsupported_image_type', { vars: { name } });
  const header = await readImageHeader(head);
  // A header past the bytes kept (a long EXIF block) is read at the end, from the whole file.
  if (!header) return undefined;
  if (header.width * header.height > maxPixels)
    return new AppError(422, 'image_too_many_pixels', { vars: { name, max: maxPixels } });
  const shape = imageShapeProblem(header.width, header.height);
  if (shape?.problem === 'too_narrow')
    return new AppError(422, 'image_too_narrow', { vars: { name, min: shape.min } });
  if (shape?.problem === 'too_elongated')
    return new AppError(422, 'aspect_ratio_too_large', { vars: { name, max: shape.max } });
  return undefined;
}

/** The whole file's refusal, or undefined: every rule a form's file meets, each answered 422. */
export async function refuseWhole(
  data: Buffer,
  name: string,
  limits: { maxBytes: number; maxPixels: number },
): Promise<AppError | undefined> {
  try {
    await checkUploadedImage(data, name, limits);
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return new AppError(422, error.key, error.options);
    throw error;
  }
}
