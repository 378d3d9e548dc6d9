// Image bytes on their way to and from a provider: inputs re-encoded only when a provider would
// refuse them (a format it does not take, or larger than it needs), outputs checked to be images
// and measured from their own bytes rather than trusting the provider's label; only raster types
// are ever kept.
import sharp from 'sharp';
import { ProviderError, type Aspect, type GeneratedImage, type InputImage } from '../capabilities.js';
import { sniffImageFormat } from '../../../shared/images/image-types.js';
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
  const sniffed = sniffImageFormat(data);
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
  /** The provider's documented limit for one image file, in bytes; larger ones are re-encoded smaller. */
  maxBytes?: number;
}

/** No image is made smaller than this on its long side to fit a byte limit. */
const MIN_FIT_SIDE = 256;

/** The image as the provider takes it: as it is when it fits, else re-encoded (PNG with alpha, JPEG without). */
export async function prepareImage(image: InputImage, options: PrepareOptions, provider: string): Promise<ImageBytes> {
  let prepared: ImageBytes;
  try {
    const meta = await sharp(image.data).metadata();
    const longSide = Math.max(image.width ?? meta.width ?? 0, image.height ?? meta.height ?? 0);
    if (longSide > 0 && longSide <= options.maxSide && options.accepted.includes(image.mimeType)) {
      prepared = { data: image.data, mimeType: image.mimeType };
    } else {
      const pipeline = sharp(image.data).rotate().resize({
        width: options.maxSide,
        height: options.maxSide,
        fit: 'inside',
        withoutEnlargement: true,
      });
      prepared = meta.hasAlpha
        ? { data: await pipeline.png().toBuffer(), mimeType: 'image/png' }
        : { data: await pipeline.jpeg({ quality: 90 }).toBuffer(), mimeType: 'image/jpeg' };
    }
  } catch (error) {
    throw new ProviderError('invalid_request', `an input image (${image.role}) cannot be read`, { provider, cause: error });
  }
  if (options.maxBytes === undefined || prepared.data.length <= options.maxBytes) return prepared;
  return fitBytes(image, options.maxSide, options.maxBytes, provider);
}

/**
 * Images for one request whose provider limits the whole request (Gemini: 20 MB with inline data).
 * Each is prepared as prepareImage does; when together they are over `maxTotalBytes`, the ones
 * over their fair share are re-encoded as JPEG, a step smaller each time, until all fit.
 */
export async function prepareImages(
  images: InputImage[],
  options: PrepareOptions & { maxTotalBytes: number },
  provider: string,
): Promise<ImageBytes[]> {
  const prepared = await Promise.all(images.map((image) => prepareImage(image, options, provider)));
  const total = (list: ImageBytes[]) => list.reduce((sum, i) => sum + i.data.length, 0);
  if (total(prepared) <= options.maxTotalBytes) return prepared;
  const share = options.maxTotalBytes / images.length;
  for (let side = options.maxSide; side >= MIN_FIT_SIDE; side = Math.floor(side * 0.75)) {
    const fitted = await Promise.all(
      images.map((image, i) => (prepared[i]!.data.length <= share ? prepared[i]! : compactJpeg(image, side, 85, provider))),
    );
    if (total(fitted) <= options.maxTotalBytes) return fitted;
  }
  throw new ProviderError('invalid_request', `the ${images.length} input images do not fit in one ${provider} request`, { provider });
}

/** The image as a JPEG of at most `maxBytes`, a step smaller each try; refused below MIN_FIT_SIDE. */
async function fitBytes(image: InputImage, maxSide: number, maxBytes: number, provider: string): Promise<ImageBytes> {
  for (let side = maxSide; side >= MIN_FIT_SIDE; side = Math.floor(side * 0.75)) {
    const fitted = await compactJpeg(image, side, 85, provider);
    if (fitted.data.length <= maxBytes) return fitted;
  }
  throw new ProviderError('invalid_request', `an input image (${image.role}) cannot be made smaller than ${maxBytes} bytes`, { provider });
}

/** A JPEG at most `side` px on its long side; transparency is flattened onto white. */
async function compactJpeg(image: InputImage, side: number, quality: number, provider: string): Promise<ImageBytes> {
  try {
    const data = await sharp(image.data)
      .rotate()
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality })
      .toBuffer();
    return { data, mimeType: 'image/jpeg' };
  } catch (error) {
    throw new ProviderError('invalid_request', `an input image (${image.role}) cannot be read`, { provider, cause: error });
  }
}

/**
 * The inputs worth sending to an image model, which works best with up to three: the first model
 * image and the first pattern image come first, then the image being regenerated, then the rest
 * in their order. The built-in engine does its own choosing and is not given this.
 */
export function pickImageInputs(sources: InputImage[], max = 3): InputImage[] {
  const firstOf = (role: InputImage['role']) => sources.find((s) => s.role === role);
  const lead = [firstOf('source'), firstOf('model'), firstOf('pattern')].filter((s): s is InputImage => s !== undefined);
  const rest = sources.filter((s) => !lead.includes(s));
  // The second pattern before the second model image: the fabric is what the picture is about.
  rest.sort((a, b) => Number(b.role === 'pattern') - Number(a.role === 'pattern'));
  return [...lead, ...rest].slice(0, max);
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
    const fits = (bytes: number) => options.maxBytes === undefined || bytes <= options.maxBytes;
    if (unchanged && options.accepted.includes(image.mimeType) && !oriented && fits(image.data.length)) {
      return { data: image.data, mimeType: image.mimeType, width, height };
    }
    // A video frame has no use for transparency: flattened onto white, sent as JPEG; past the
    // provider's file limit, a step smaller each try.
    for (let step = 1; ; step *= 0.75) {
      const w = Math.max(1, Math.round(outW * step));
      const h = Math.max(1, Math.round(outH * step));
      const data = await source
        .clone()
        .resize({ width: w, height: h, fit: 'cover', position: sharp.strategy.attention })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: step === 1 ? 92 : 85 })
        .toBuffer();
      if (fits(data.length)) return { data, mimeType: 'image/jpeg', width: w, height: h };
      if (Math.min(w, h) < MIN_FIT_SIDE) throw new Error(`cannot be made smaller than ${options.maxBytes} bytes`);
    }
  } catch (error) {
    throw new ProviderError('invalid_request', `the ${image.role} image cannot be read`, { provider, cause: error });
  }
}
