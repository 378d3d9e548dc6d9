// Suggests a Real-CUGAN denoise level from the pixels: JPEG blockiness (how much stronger the
// steps across 8×8 block edges are than the steps inside blocks) and noise (median absolute
// deviation of a Laplacian-like high-pass, Immerkær's mask, which cancels smooth gradients).
// Pure and DOM-free: takes any RGBA pixel buffer, so a worker can run it on OffscreenCanvas pixels.

/** RGBA pixels, row-major; ImageData fits. */
export interface RgbaPixels {
  width: number;
  height: number;
  data: ArrayLike<number>;
}

export type DenoiseLevel = 'conservative' | 'denoise1x' | 'denoise2x' | 'denoise3x';

export type NoiseReason = 'heavyJpeg' | 'heavyNoise' | 'moderate' | 'light' | 'clean';

export interface NoiseEstimate {
  /** Block-edge steps ÷ in-block steps; about 1 for images that never saw JPEG. */
  blockiness: number;
  /** Estimated Gaussian noise standard deviation in grey levels (0–255). */
  noiseSigma: number;
  level: DenoiseLevel;
  reason: NoiseReason;
  /** i18n key of the one-line reason, with `blockiness` and `noise` as values. */
  reasonKey: string;
  reasonValues: { blockiness: string; noise: string };
}

/** Analysis window: large enough to be stable, small enough to be quick; kept on the 8×8 grid. */
export const ANALYSIS_SIZE = 512;

/**
 * Calibrated on libjpeg (sharp) encodes of a woven-texture test image: quality 30 and below
 * measure about 1.6 and up, 50 about 1.4, 75 about 1.2, 90 and above under 1.1; a PNG 1.02.
 * Noise is luma noise: independent per-channel noise of σ shows as about 0.67σ here.
 */
export const THRESHOLDS = {
  heavyBlockiness: 1.5,
  moderateBlockiness: 1.3,
  lightBlockiness: 1.15,
  heavyNoise: 8,
  moderateNoise: 4.5,
  lightNoise: 2.5,
} as const;

interface Luma {
  width: number;
  height: number;
  y: Uint8Array;
}

/** Integer luma of a centred window whose origin sits on the 8-pixel grid of the source. */
function lumaWindow(pixels: RgbaPixels, maxSize: number): Luma {
  const width = Math.min(pixels.width, maxSize);
  const height = Math.min(pixels.height, maxSize);
  const x0 = Math.floor((pixels.width - width) / 2 / 8) * 8;
  const y0 = Math.floor((pixels.height - height) / 2 / 8) * 8;
  const y = new Uint8Array(width * height);
  const { data } = pixels;
  for (let row = 0; row < height; row += 1) {
    let src = ((y0 + row) * pixels.width + x0) * 4;
    const out = row * width;
    for (let col = 0; col < width; col += 1, src += 4) {
      // Rec. 601 weights in fixed point, as JPEG's own colour transform uses.
      y[out + col] =
        (77 * (data[src] ?? 0) + 150 * (data[src + 1] ?? 0) + 29 * (data[src + 2] ?? 0) + 128) >> 8;
    }
  }
  return { width, height, y };
}

/** Mean absolute step between neighbours, grouped by position modulo 8 along one axis. */
function stepsByPhase(luma: Luma, horizontal: boolean): number[] {
  const sums = new Array<number>(8).fill(0);
  const counts = new Array<number>(8).fill(0);
  const { width, height, y } = luma;
  for (let row = horizontal ? 0 : 1; row < height; row += 1) {
    for (let col = horizontal ? 1 : 0; col < width; col += 1) {
      const i = row * width + col;
      const j = horizontal ? i - 1 : i - width;
      const phase = (horizontal ? col : row) % 8;
      sums[phase] = (sums[phase] ?? 0) + Math.abs((y[i] ?? 0) - (y[j] ?? 0));
      counts[phase] = (counts[phase] ?? 0) + 1;
    }
  }
  return sums.map((sum, phase) => sum / Math.max(1, counts[phase] ?? 0));
}

/** The strongest phase is taken as the block edge, so a crop that shifted the grid still counts. */
function axisBlockiness(steps: number[]): { ratio: number; phase: number } {
  let phase = 0;
  for (let p = 1; p < 8; p += 1) if ((steps[p] ?? 0) > (steps[phase] ?? 0)) phase = p;
  const edge = steps[phase] ?? 0;
  const inside = (steps.reduce((a, b) => a + b, 0) - edge) / 7;
  // +1 grey level keeps flat images (all steps near zero) at a ratio near 1.
  return { ratio: (edge + 1) / (inside + 1), phase };
}

/** σ ≈ 1.4826 · median|M∗Y| / 6 (‖M‖ = 6), skipping windows that straddle a block edge. */
function noiseSigma(luma: Luma, phaseX: number, phaseY: number): number {
  const { width, height, y } = luma;
  const histogram = new Uint32Array(4 * 255 * 4 + 1);
  let count = 0;
  for (let row = 1; row < height - 1; row += 1) {
    const ry = (row - phaseY + 8) % 8;
    if (ry === 0 || ry === 7) continue;
    for (let col = 1; col < width - 1; col += 1) {
      const rx = (col - phaseX + 8) % 8;
      if (rx === 0 || rx === 7) continue;
      const i = row * width + col;
      const value =
        (y[i - width - 1] ?? 0) -
        2 * (y[i - width] ?? 0) +
        (y[i - width + 1] ?? 0) -
        2 * (y[i - 1] ?? 0) +
        4 * (y[i] ?? 0) -
        2 * (y[i + 1] ?? 0) +
        (y[i + width - 1] ?? 0) -
        2 * (y[i + width] ?? 0) +
        (y[i + width + 1] ?? 0);
      histogram[Math.abs(value)] = (histogram[Math.abs(value)] ?? 0) + 1;
      count += 1;
    }
  }
  if (count === 0) return 0;
  let seen = 0;
  for (let v = 0; v < histogram.length; v += 1) {
    seen += histogram[v] ?? 0;
    if (seen * 2 >= count) return (1.4826 * v) / 6;
  }
  return 0;
}

export function classifyNoise(
  blockiness: number,
  sigma: number,
): { level: DenoiseLevel; reason: NoiseReason } {
  const t = THRESHOLDS;
  if (blockiness >= t.heavyBlockiness) return { level: 'denoise3x', reason: 'heavyJpeg' };
  if (sigma >= t.heavyNoise) return { level: 'denoise3x', reason: 'heavyNoise' };
  if (blockiness >= t.moderateBlockiness || sigma >= t.moderateNoise)
    return { level: 'denoise2x', reason: 'moderate' };
  if (blockiness >= t.lightBlockiness || sigma >= t.lightNoise)
    return { level: 'denoise1x', reason: 'light' };
  return { level: 'conservative', reason: 'clean' };
}

export function estimateNoise(pixels: RgbaPixels, maxSize = ANALYSIS_SIZE): NoiseEstimate {
  const luma = lumaWindow(pixels, maxSize);
  const horizontal = axisBlockiness(stepsByPhase(luma, true));
  const vertical = axisBlockiness(stepsByPhase(luma, false));
  const blockiness = (horizontal.ratio + vertical.ratio) / 2;
  const sigma = noiseSigma(luma, horizontal.phase, vertical.phase);
  const { level, reason } = classifyNoise(blockiness, sigma);
  return {
    blockiness,
    noiseSigma: sigma,
    level,
    reason,
    reasonKey: `imageProcessing.noise.reason.${reason}`,
    reasonValues: { blockiness: blockiness.toFixed(2), noise: sigma.toFixed(1) },
  };
}

/**
 * The model for a level at a scale. 3x and 4x ship only conservative, no-denoise and denoise3x:
 * light falls back to conservative (it smooths a little), medium to denoise3x.
 */
export function modelForLevel(level: DenoiseLevel, scale: number, available?: readonly string[]): string {
  const preferred = `up${scale}x-${level}`;
  if (!available || available.includes(preferred)) return preferred;
  const fallback = level === 'denoise1x' ? 'conservative' : level === 'denoise2x' ? 'denoise3x' : level;
  const second = `up${scale}x-${fallback}`;
  if (available.includes(second)) return second;
  return available.find((name) => name.startsWith(`up${scale}x-`)) ?? preferred;
}
