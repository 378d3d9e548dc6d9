// The size and shape every image the product accepts must have, read from its header before any
// decode: generation and workshop uploads (upload-check.ts) and the upscale service
// (image-admission.ts) apply this one rule and report it in their own error shapes. A sliver of an
// image is a few hundred bytes on the wire yet costs in proportion to its long side: a 1x40000
// PNG of 933 bytes would take a cover resize to 17.6 GB, and a 4,000,000x1 one would hold the
// upscale engine for minutes.
import sharp from 'sharp';

/**
 * Shortest side accepted, in pixels. An upscale tile reads 18-19 px of context on each side, and a
 * swatch or a cover crop of a side of a few pixels is nearly all interpolation: below this there
 * is nothing left to work on.
 */
export const MIN_SIDE_PIXELS = 8;
/**
 * Longest side over shortest side accepted. A thin image fills upscale tiles with context instead
 * of pixels and makes every fill-the-frame resize scale its short side up by the same factor as its
 * long one. Within 32:1 an image at a 4.2 MP limit is still 362 px across, and the costliest cover
 * resize to a square of side S touches at most 32 S² pixels.
 */
export const MAX_ASPECT_RATIO = 32;

export type ImageShapeProblem =
  | { problem: 'too_narrow'; min: number }
  | { problem: 'too_elongated'; max: number };

/** What is wrong with a width × height (the header's, first frame), or undefined when it passes. */
export function imageShapeProblem(width: number, height: number): ImageShapeProblem | undefined {
  const shorter = Math.min(width, height);
  if (!(shorter >= MIN_SIDE_PIXELS)) return { problem: 'too_narrow', min: MIN_SIDE_PIXELS };
  if (Math.max(width, height) > shorter * MAX_ASPECT_RATIO) return { problem: 'too_elongated', max: MAX_ASPECT_RATIO };
  return undefined;
}

/**
 * Width and height from an image's header alone, nothing decoded (so no pixel limit is met here:
 * the limit is the caller's to report): the first frame's, as an animation's height counts every
 * frame. Undefined when the header cannot be read or gives no dimensions.
 */
export async function readImageHeader(data: Buffer): Promise<{ width: number; height: number } | undefined> {
  try {
    const meta = await sharp(data, { limitInputPixels: false, failOn: 'none' }).metadata();
    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
