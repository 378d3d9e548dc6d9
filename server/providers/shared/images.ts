// Image bytes on their way to and from a provider: inputs re-encoded only when a provider would
// refuse them (a format it does not take, or larger than it needs), outputs checked to be images
// and measured from their own bytes rather than trusting the provider's label.
import sharp from 'sharp';
import { ProviderError, type Aspect, type GeneratedImage, type InputImage } from '../capabilities.js';
import { ASPECT_VALUE } from './aspect.js';

export interface ImageBytes {
  data: Buffer;
  mimeType: string;
}

const MIME_BY_FORMAT: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** Reads a generated image: refuses bytes that are not a PNG, JPEG, WebP or GIF. */
export async function readGeneratedImage(data: Buffer, provider: string, label?: string): Promise<GeneratedImage> {
  try {
    const meta = await sharp(data).metadata();
    const mimeType = meta.format ? MIME_BY_FORMAT[meta.format] : undefined;
    if (!mimeType || !meta.width || !meta.height) throw new Error(`unexpected image format ${meta.format ?? 'unknown'}`);
    return { data, mimeType, width: meta.width, height: meta.height, ...(label === undefined ? {} : { label }) };
  } catch (error) {
    throw new ProviderError('bad_response', `${provider} returned image data that cannot be read`, { provider, cause: error });
  }
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
