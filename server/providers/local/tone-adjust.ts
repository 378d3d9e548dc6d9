// Tone changes over raw pixels in Lab: warmer/cooler, lighter/darker, contrast, saturation and a
// tint toward a named colour. Used for the candidates' model-photo variants and for regenerating
// an image from prompt keywords.
import { labToRgb, rgbToLab, type Lab } from './color-space.js';
import type { Raster } from './raster.js';

export interface ToneAdjustment {
  /** -1..1: toward blue (cool) or amber (warm). */
  warmth?: number;
  /** -1..1: darker or lighter (a gamma curve on L*, so black and white stay put). */
  lightness?: number;
  /** Multiplier of L* around the middle grey; 1 = unchanged. */
  contrast?: number;
  /** Multiplier of chroma; 0 = black and white, 1 = unchanged. */
  saturation?: number;
  /** Moves every pixel's colour part of the way toward this colour's hue, keeping its lightness. */
  tint?: { lab: Lab; amount: number };
}

export function isIdentity(adj: ToneAdjustment): boolean {
  return (
    !adj.warmth &&
    !adj.lightness &&
    (adj.contrast ?? 1) === 1 &&
    (adj.saturation ?? 1) === 1 &&
    !(adj.tint && adj.tint.amount > 0)
  );
}

/** Adds b to a, with every effect added up (for "warmer" and "stronger" together). */
export function combineAdjustments(a: ToneAdjustment, b: ToneAdjustment): ToneAdjustment {
  return {
    warmth: (a.warmth ?? 0) + (b.warmth ?? 0),
    lightness: (a.lightness ?? 0) + (b.lightness ?? 0),
    contrast: (a.contrast ?? 1) * (b.contrast ?? 1),
    saturation: (a.saturation ?? 1) * (b.saturation ?? 1),
    tint: b.tint ?? a.tint,
  };
}

/** Scales every effect of an adjustment (0 = none, 1 = as given). */
export function scaleAdjustment(adj: ToneAdjustment, factor: number): ToneAdjustment {
  return {
    warmth: (adj.warmth ?? 0) * factor,
    lightness: (adj.lightness ?? 0) * factor,
    contrast: 1 + ((adj.contrast ?? 1) - 1) * factor,
    saturation: Math.max(0, 1 + ((adj.saturation ?? 1) - 1) * factor),
    tint: adj.tint ? { lab: adj.tint.lab, amount: Math.min(0.9, adj.tint.amount * factor) } : undefined,
  };
}

export function adjustTone(raster: Raster, adj: ToneAdjustment): Raster {
  const warmth = Math.max(-1.5, Math.min(1.5, adj.warmth ?? 0));
  const lightness = Math.max(-0.9, Math.min(0.9, adj.lightness ?? 0));
  const contrast = adj.contrast ?? 1;
  const saturation = adj.saturation ?? 1;
  const gamma = 1 - 0.45 * lightness;
  const tint = adj.tint;
  const out = new Uint8Array(raster.data.length);
  for (let o = 0; o < raster.data.length; o += 3) {
    let [l, a, b] = rgbToLab(raster.data[o] ?? 0, raster.data[o + 1] ?? 0, raster.data[o + 2] ?? 0);
    if (lightness !== 0) l = 100 * (Math.max(0, l) / 100) ** gamma;
    if (contrast !== 1) l = 50 + (l - 50) * contrast;
    a = a * saturation + 4 * warmth;
    b = b * saturation + 14 * warmth;
    if (tint && tint.amount > 0) {
      // Keep some of the pixel's own chroma so texture and shading survive the tint.
      a = a * (1 - tint.amount) + tint.lab[1] * tint.amount;
      b = b * (1 - tint.amount) + tint.lab[2] * tint.amount;
    }
    const rgb = labToRgb(Math.max(0, Math.min(100, l)), a, b);
    out[o] = rgb[0];
    out[o + 1] = rgb[1];
    out[o + 2] = rgb[2];
  }
  return { width: raster.width, height: raster.height, data: out };
}
