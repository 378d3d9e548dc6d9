// Workshop image enhancement of the built-in engine: enlarge (the Real-CUGAN engine when the
// server has it, else a lanczos resize x2), then correct the tone: auto levels on lightness, a
// gentle contrast curve and saturation to taste, a light sharpen for a professional finish.
// Creativity sets how far the look moves; precision keeps it closer to the original.
import sharp from 'sharp';
import type { EnhanceStyle } from '../capabilities.js';
import { throwIfCancelled } from './cancellation.js';

/** An enlarged image and how it was made ("Real-CUGAN up2x-conservative ×2 (…)", "lanczos ×2"). */
export interface EnlargeResult {
  data: Buffer;
  model: string;
}

export type Upscale = (image: Buffer, signal: AbortSignal) => Promise<EnlargeResult>;

export interface ToneCorrection {
  /** Percent of the darkest and brightest pixels clipped by auto levels. */
  clipPercent: number;
  /** Contrast gain around mid grey (1 = unchanged). */
  contrast: number;
  /** Saturation multiplier (1 = unchanged). */
  saturation: number;
  /** Unsharp-mask sigma, or 0 for none. */
  sharpen: number;
}

const STYLE: Record<EnhanceStyle, { contrast: number; saturation: number; sharpen: number }> = {
  natural: { contrast: 0.06, saturation: 0.05, sharpen: 0 },
  professional: { contrast: 0.08, saturation: 0, sharpen: 0.7 },
  creative: { contrast: 0.15, saturation: 0.25, sharpen: 0 },
  artistic: { contrast: 0.2, saturation: 0.35, sharpen: 0 },
};

/** The correction for the workshop's settings (creativity and precision 0..1). */
export function toneCorrectionFor(style: EnhanceStyle, creativity: number, precision: number): ToneCorrection {
  const c = Math.max(0, Math.min(1, creativity));
  const p = Math.max(0, Math.min(1, precision));
  const s = STYLE[style] ?? STYLE.natural;
  // Precision holds the change back: at 1 half as much as at 0.
  const restraint = 1 - 0.5 * p;
  return {
    clipPercent: Number((0.3 + 1.2 * (1 - p)).toFixed(2)),
    contrast: 1 + s.contrast * (0.5 + c) * restraint,
    saturation: 1 + s.saturation * (0.5 + c) * restraint,
    sharpen: p >= 0.5 ? s.sharpen : s.sharpen / 2,
  };
}

/** Largest output side; an enlarged photo past this would only be slow to handle. */
const MAX_OUTPUT_SIDE = 8192;

/**
 * Enlarges with the server's upscaler when it has one; without it, or when it fails for another
 * reason than a cancel (no model files yet), with lanczos ×2, and says which.
 */
export async function enlarge(
  image: Buffer,
  upscale: Upscale | undefined,
  signal: AbortSignal,
  onFallback?: (error: unknown) => void,
): Promise<EnlargeResult> {
  throwIfCancelled(signal);
  if (upscale) {
    try {
      return await upscale(image, signal);
    } catch (error) {
      throwIfCancelled(signal);
      onFallback?.(error);
    }
  }
  const meta = await sharp(image, { pages: 1 }).metadata();
  const width = meta.autoOrient.width;
  const height = meta.pageHeight ?? meta.autoOrient.height;
  const factor = Math.min(2, MAX_OUTPUT_SIDE / Math.max(width, height));
  const data = await sharp(image, { pages: 1 })
    .autoOrient()
    .resize(Math.round(width * factor), Math.round(height * factor), { kernel: 'lanczos3', fit: 'fill' })
    .png({ compressionLevel: 3 })
    .toBuffer();
  return { data, model: `lanczos ×${Number(factor.toFixed(2))}` };
}

export type OutputFormat = 'png' | 'jpeg' | 'webp';

export async function correctTone(
  image: Buffer,
  correction: ToneCorrection,
  format: OutputFormat,
): Promise<{ data: Buffer; width: number; height: number; mimeType: string }> {
  let pipeline = sharp(image, { pages: 1 })
    .autoOrient()
    .normalise({ lower: correction.clipPercent, upper: 100 - correction.clipPercent })
    .linear(correction.contrast, 128 * (1 - correction.contrast))
    .modulate({ saturation: correction.saturation });
  if (correction.sharpen > 0) pipeline = pipeline.sharpen({ sigma: correction.sharpen });
  const encoded =
    format === 'jpeg'
      ? pipeline.jpeg({ quality: 92, mozjpeg: true })
      : format === 'webp'
        ? pipeline.webp({ quality: 92 })
        : pipeline.png();
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, mimeType: `image/${format}` };
}

/** The workshop keeps the upload's format (a GIF comes back as PNG). */
export function outputFormatOf(mimeType: string): OutputFormat {
  if (mimeType === 'image/jpeg') return 'jpeg';
  if (mimeType === 'image/webp') return 'webp';
  return 'png';
}
