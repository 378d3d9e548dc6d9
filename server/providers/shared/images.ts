// Image bytes on their way to and from a provider: inputs re-encoded only when a provider would
// refuse them (a format it does not take, or larger than it needs), outputs checked to be images
// and measured from their own bytes rather than trusting the provider's label; only raster types
// are ever kept.
import sharp from 'sharp';
import { ProviderError, type Aspect, type GeneratedImage, type InputImage } from '../capabilities.js';
import { sniffImageType } from '../../modules/upscale/image-type.js';
import { ASPECT_VALUE } from './aspect.js';

export interface ImageBytes {
  data: Buffer;
  mimeType: string;
}

/** Largest generated image accepted, in pixels (a 4K square is 16.8 MP); past it, a bad response. */
export const MAX_GENERATED_PIXELS = 50_000_000;

/** A provider's image as it may be stored and served: a raster PNG, JPEG, WebP or GIF, measured. */
export interface RasterImage {
  data: Buffer;
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
  width: number;
  height: number;
}

function badImage(provider: string, detail: string, cause?: unknown): ProviderError {
  return new ProviderError('bad_response', `${provider} returned image data that cannot be read: ${detail}`, {
    provider,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * A generated image as the product stores it, whatever the provider said or sent. The type is
 * sniffed from the bytes (never the provider's label or sharp's loader name): a PNG, JPEG, WebP
 * or GIF is kept as it is; anything else sharp can rasterise within MAX_GENERATED_PIXELS (SVG,
 * TIFF, AVIF...) is re-encoded to PNG, so an SVG with script in it can never be stored or served
 * as SVG; the rest is a bad provider response.
 */
export async function rasterGeneratedImage(data: Buffer, provider: string): Promise<RasterImage> {
  const sniffed = sniffImageType(data);
  let width: number;
  let height: number;
  let format: string | undefined;
  try {
    // Only the header: the pixel limit is checked here, before anything is decoded.
    const meta = await sharp(data, { limitInputPixels: false, failOn: 'none' }).metadata();
    width = meta.width ?? 0;
    height = meta.pageHeight ?? meta.height ?? 0;
    format = meta.format;
  } catch (error) {
    throw badImage(provider, 'not an image', error);
  }
  if (!width || !height) throw badImage(provider, 'no dimensions');
  if (width * height > MAX_GENERATED_PIXELS) throw badImage(provider, `${width}x${height} is over ${MAX_GENERATED_PIXELS} pixels`);
  if (sniffed && format === sniffed) return { data, mimeType: `image/${sniffed}`, width, height };
  try {
    const { data: png, info } = await sharp(data, { limitInputPixels: MAX_GENERATED_PIXELS, failOn: 'truncated', pages: 1 })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { data: png, mimeType: 'image/png', width: info.width, height: info.height };
  } catch (error) {
    throw badImage(provider, `a ${format ?? 'unknown'} image that cannot be rasterised`, error);
  }
}

/** Reads a generated image: kept when it is a PNG, JPEG, WebP or GIF, else re-encoded to PNG or refused. */
export async function readGeneratedImage(data: Buffer, provider: string, label?: string): Promise<GeneratedImage> {
  const image = await rasterGeneratedImage(data, provider);
  return { ...image, ...(label === undefined ? {} : { label }) };
}

export interface PrepareOptions {
  /** MIME types the provider takes as they are. */
  accepted: readonly string[];
  /** Longest side worth sending; larger images are scaled down (the models see less anyway). */
  maxSide: number;
}

/** The image as the provider takes it: as it is when it fits, else re-encoded (PNG with alpha, JPEG without). */
export async function prepareImage(image: InputImage, options: PrepareOptions, provider: string): Promise<ImageBytes> {
  try {
    const meta = await sharp(image.data).metadata();
    const longSide = Math.max(image.width ?? meta.width ?? 0, image.height ?? meta.height ?? 0);
    if (longSide > 0 && longSide <= options.maxSide && options.accepted.includes(image.mimeType)) {
      return { data: image.data, mimeType: image.mimeType };
    }
    const pipeline = sharp(image.data).rotate().resize({
      width: options.maxSide,
      height: options.maxSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
    return meta.hasAlpha
      ? { data: await pipeline.png().toBuffer(), mimeType: 'image/png' }
      : { data: await pipeline.jpeg({ quality: 90 }).toBuffer(), mimeType: 'image/jpeg' };
  } catch (error) {
    throw new ProviderError('invalid_request', `an input image (${image.role}) cannot be read`, { provider, cause: error });
  }
}

export function toDataUrl(image: ImageBytes): string {
  return `data:${image.mimeType};base64,${image.data.toString('base64')}`;
}

export interface Frame extends ImageBytes {
  width: number;
  height: number;
}

/**
 * A video's first or last frame cropped to the asked aspect. Image-to-video models make the video
 * in the frame's own shape, so this is how `aspect` takes effect; the crop keeps the region with
 * skin tones and detail (sharp's attention strategy) so a model's face stays in the picture.
 * 'auto' keeps the frame as it is.
 */
export async function frameForAspect(
  image: InputImage,
  aspect: Aspect,
  options: PrepareOptions,
  provider: string,
): Promise<Frame> {
  try {
    const source = sharp(image.data).rotate();
    const meta = await sharp(image.data).metadata();
    const oriented = (meta.orientation ?? 1) >= 5;
    const width = (oriented ? meta.height : meta.width) ?? 0;
    const height = (oriented ? meta.width : meta.height) ?? 0;
    if (!width || !height) throw new Error('no dimensions');
    let targetW = width;
    let targetH = height;
    if (aspect !== 'auto') {
      const ratio = ASPECT_VALUE[aspect];
      if (width / height > ratio) targetW = Math.round(height * ratio);
      else targetH = Math.round(width / ratio);
    }
    const scale = Math.min(1, options.maxSide / Math.max(targetW, targetH));
    const outW = Math.max(1, Math.round(targetW * scale));
    const outH = Math.max(1, Math.round(targetH * scale));
    const unchanged = outW === width && outH === height;
    if (unchanged && options.accepted.includes(image.mimeType) && !oriented) {
      return { data: image.data, mimeType: image.mimeType, width, height };
    }
    // A video frame has no use for transparency: flattened onto white, sent as JPEG.
    const data = await source
      .resize({ width: outW, height: outH, fit: 'cover', position: sharp.strategy.attention })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 92 })
      .toBuffer();
    return { data, mimeType: 'image/jpeg', width: outW, height: outH };
  } catch (error) {
    throw new ProviderError('invalid_request', `the ${image.role} image cannot be read`, { provider, cause: error });
  }
}
