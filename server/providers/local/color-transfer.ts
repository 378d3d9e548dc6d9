// Reinhard-style colour transfer (Reinhard et al. 2001, in CIELAB rather than lαβ): shift and scale
// each channel of a photo so its mean and spread match the pattern's. The model photo then wears
// the pattern's palette as a colour mood; lightness is moved only a little so faces keep their
// modelling.
import { labToRgb, rgbPixelsToLab } from './color-space.js';
import type { Raster } from './raster.js';

export interface LabStats {
  mean: [number, number, number];
  std: [number, number, number];
}

export function labStats(raster: Raster): LabStats {
  const n = raster.width * raster.height;
  const { l, a, b } = rgbPixelsToLab(raster.data, n);
  const planes = [l, a, b];
  const mean = planes.map((p) => {
    let s = 0;
    for (const v of p) s += v;
    return s / (n || 1);
  }) as [number, number, number];
  const std = planes.map((p, k) => {
    let s = 0;
    for (const v of p) s += (v - mean[k]!) ** 2;
    return Math.sqrt(s / (n || 1));
  }) as [number, number, number];
  return { mean, std };
}

export interface TransferStrength {
  /** 0..1 of the lightness transfer. */
  lightness: number;
  /** 0..1 of the colour (a*, b*) transfer. */
  color: number;
}

/** Spread ratios are clamped so a flat source is not blown up into noise. */
const MIN_RATIO = 0.4;
const MAX_RATIO = 2.5;

export function transferColors(
  source: Raster,
  target: LabStats,
  strength: TransferStrength = { lightness: 0.2, color: 0.8 },
): Raster {
  const n = source.width * source.height;
  const { l, a, b } = rgbPixelsToLab(source.data, n);
  const own = labStats(source);
  const weights = [strength.lightness, strength.color, strength.color];
  const planes = [l, a, b];
  const ratio = [0, 1, 2].map((k) =>
    Math.max(MIN_RATIO, Math.min(MAX_RATIO, target.std[k]! / Math.max(1e-3, own.std[k]!))),
  );
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const lab = [0, 1, 2].map((k) => {
      const v = planes[k]![i]!;
      const moved = (v - own.mean[k]!) * ratio[k]! + target.mean[k]!;
      return v + (moved - v) * weights[k]!;
    });
    const rgb = labToRgb(Math.max(0, Math.min(100, lab[0]!)), lab[1]!, lab[2]!);
    out[i * 3] = rgb[0];
    out[i * 3 + 1] = rgb[1];
    out[i * 3 + 2] = rgb[2];
  }
  return { width: source.width, height: source.height, data: out };
}
