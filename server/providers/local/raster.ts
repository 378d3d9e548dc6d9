// Raw RGB pixels in and out of sharp. The measurements and recolouring are pure functions over a
// Raster; sharp (libvips, off the event loop) decodes, resizes, composes and encodes.
import sharp, { type Sharp } from 'sharp';
import { ProviderError } from '../capabilities.js';
import { LOCAL_PROVIDER } from './model-name.js';

/** Interleaved 8-bit RGB, no alpha (transparent areas are flattened onto white). */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Uploaded images are checked before they get here, but a corrupt one must still fail clearly. */
const MAX_INPUT_PIXELS = 100_000_000;

export function openImage(data: Buffer): Sharp {
  return sharp(data, { failOn: 'truncated', limitInputPixels: MAX_INPUT_PIXELS, pages: 1 })
    .autoOrient()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb');
}

function unreadable(cause: unknown): ProviderError {
  return new ProviderError('invalid_request', 'an input image could not be read', {
    provider: LOCAL_PROVIDER,
    cause,
  });
}

/** The image's upright size (after EXIF orientation). */
export async function imageSize(data: Buffer): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1 }).metadata();
    // pageHeight: one frame of an animation (GIFs carry no EXIF orientation).
    const width = meta.autoOrient.width;
    const height = meta.pageHeight ?? meta.autoOrient.height;
    if (!width || !height) throw new Error('no dimensions');
    return { width, height };
  } catch (e) {
    throw unreadable(e);
  }
}

/**
 * Decodes to RGB, shrunk to fit maxSide (never enlarged). `nearest` keeps the exact colours of the
 * source pixels (for colour statistics); the default lanczos keeps the structure (for patterns).
 */
export async function decodeRaster(
  data: Buffer,
  maxSide: number,
  kernel: 'nearest' | 'lanczos3' = 'lanczos3',
): Promise<Raster> {
  try {
    const { data: pixels, info } = await openImage(data)
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true, kernel })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length) };
  } catch (e) {
    throw unreadable(e);
  }
}

/**
 * The largest region of a sourceW x sourceH image with the shape of width x height: what a cover
 * resize keeps. Never larger than the source, never empty.
 */
export function coverRegion(source: { width: number; height: number }, width: number, height: number): { width: number; height: number } {
  const scale = Math.max(width / source.width, height / source.height);
  const clamp = (v: number, max: number) => Math.max(1, Math.min(max, Math.round(v)));
  return { width: clamp(width / scale, source.width), height: clamp(height / scale, source.height) };
}

async function toRaster(pipeline: Sharp): Promise<Raster> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/**
 * Exactly width x height from an image of the given (upright) size, cropped to cover with sharp's
 * attention strategy (faces and detail kept). Sharp's cover resize scales the whole image first
 * and crops after, so enlarging a sliver costs its long side times the enlargement: a 1x40000
 * image framed to 384 px squares was first made 384x15,360,000 (17.6 GB). When the frame is larger
 * than the image, the crop is therefore taken at the image's own size and only that region is
 * enlarged; the work never exceeds the source's pixels plus the output's.
 */
export async function coverResize(open: () => Sharp, source: { width: number; height: number }, width: number, height: number): Promise<Raster> {
  const cover = { fit: 'cover' as const, position: sharp.strategy.attention };
  if (width <= source.width && height <= source.height) return toRaster(open().resize(width, height, cover));
  const region = coverRegion(source, width, height);
  const cropped =
    region.width === source.width && region.height === source.height
      ? open()
      : rasterToSharp(await toRaster(open().resize(region.width, region.height, cover)));
  return toRaster(cropped.resize(width, height, { fit: 'fill' }));
}

/** Decodes to exactly width x height, cropping to cover (faces and detail kept by attention). */
export async function decodeRasterCover(data: Buffer, width: number, height: number): Promise<Raster> {
  const size = await imageSize(data);
  try {
    return await coverResize(() => openImage(data), size, width, height);
  } catch (e) {
    throw unreadable(e);
  }
}

/** A sharp pipeline over a raster, to compose, resize or encode it. */
export function rasterToSharp(raster: Raster): Sharp {
  return sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.length), {
    raw: { width: raster.width, height: raster.height, channels: 3 },
  });
}

export async function rasterToPng(raster: Raster): Promise<Buffer> {
  return rasterToSharp(raster).png().toBuffer();
}
