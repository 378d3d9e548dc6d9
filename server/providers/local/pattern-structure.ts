// What kind of pattern an image holds: stripes (and which way they run), a check, a directional
// texture, an irregular print or a solid colour. The structure tensor (summed products of the
// gradients) says whether edges share one direction and which; the line autocorrelations say
// whether, and how often, the pattern repeats.
import { periodicity, type Periodicity, type Planes } from './repeat-period.js';

export type Orientation = 'horizontal' | 'vertical' | 'diagonal' | 'check' | 'none';
export type PatternKind = 'solid' | 'stripes' | 'check' | 'directional' | 'print';
export type PatternScale = 'fine' | 'medium' | 'large' | 'none';

export interface PatternStructure {
  kind: PatternKind;
  orientation: Orientation;
  /** Repeat along the width / height in pixels of the measured image, when there is one. */
  periodX: number | null;
  periodY: number | null;
  /** 0..1: how exactly the pattern repeats along each axis. */
  strengthX: number;
  strengthY: number;
  /** 0..1: how much the edges share one direction (1 = perfect stripes). */
  coherence: number;
  /** Direction the stripes run, in degrees: 0 = horizontal, 90 = vertical, 45 / 135 = diagonal. */
  stripeAngle: number;
  /** Size of the pattern's features in pixels (for prints without a repeat). */
  featureSize: number;
  scale: PatternScale;
  /** How many times the repeat fits across the image along its axis, when it repeats. */
  repeats: number | null;
}

/** Below this RMS variation (Lab units) the image is a solid colour. */
const SOLID_VARIATION = 2.5;
const COHERENT = 0.5;
const PERIODIC = 0.3;

function variation(image: Planes): number {
  let total = 0;
  for (const plane of image.planes) {
    let mean = 0;
    for (const v of plane) mean += v;
    mean /= plane.length || 1;
    let sq = 0;
    for (const v of plane) sq += (v - mean) ** 2;
    total += sq / (plane.length || 1);
  }
  return Math.sqrt(total);
}

function structureTensor(image: Planes): { jxx: number; jyy: number; jxy: number } {
  const { width: w, height: h } = image;
  let jxx = 0;
  let jyy = 0;
  let jxy = 0;
  for (const p of image.planes) {
    for (let y = 1; y < h - 1; y++) {
      for (let x = 1; x < w - 1; x++) {
        const i = y * w + x;
        // Sobel: smoother than a plain difference, so pixel noise does not pass for direction.
        const gx =
          (p[i - w + 1] as number) + 2 * (p[i + 1] as number) + (p[i + w + 1] as number) -
          (p[i - w - 1] as number) - 2 * (p[i - 1] as number) - (p[i + w - 1] as number);
        const gy =
          (p[i + w - 1] as number) + 2 * (p[i + w] as number) + (p[i + w + 1] as number) -
          (p[i - w - 1] as number) - 2 * (p[i - w] as number) - (p[i - w + 1] as number);
        jxx += gx * gx;
        jyy += gy * gy;
        jxy += gx * gy;
      }
    }
  }
  return { jxx, jyy, jxy };
}

function scaleOf(repeats: number | null, featureFraction: number): PatternScale {
  if (repeats !== null) return repeats >= 12 ? 'fine' : repeats >= 4 ? 'medium' : 'large';
  return featureFraction < 0.02 ? 'fine' : featureFraction < 0.08 ? 'medium' : 'large';
}

export function patternStructure(image: Planes): PatternStructure {
  const shortSide = Math.min(image.width, image.height);
  if (variation(image) < SOLID_VARIATION || shortSide < 8) {
    return {
      kind: 'solid',
      orientation: 'none',
      periodX: null,
      periodY: null,
      strengthX: 0,
      strengthY: 0,
      coherence: 0,
      stripeAngle: 0,
      featureSize: 0,
      scale: 'none',
      repeats: null,
    };
  }
  // Every other line is plenty for a repeat and halves the work on large images.
  const step = shortSide > 256 ? 2 : 1;
  const alongX: Periodicity = periodicity(image, 'x', step);
  const alongY: Periodicity = periodicity(image, 'y', step);
  const { jxx, jyy, jxy } = structureTensor(image);
  const energy = jxx + jyy;
  const coherence = energy > 0 ? Math.hypot(jxx - jyy, 2 * jxy) / energy : 0;
  // Dominant gradient direction (0 = gradients along x, i.e. vertical stripes); image y points down.
  const gradientAngle = (0.5 * Math.atan2(2 * jxy, jxx - jyy) * 180) / Math.PI;
  const stripeAngle = (((90 - gradientAngle) % 180) + 180) % 180;
  const featureSize = (alongX.correlationLength + alongY.correlationLength) / 2;

  let orientation: Orientation = 'none';
  let kind: PatternKind = 'print';
  let repeatLength: number | null = null;
  let axisLength = image.width;
  if (coherence >= COHERENT) {
    const fromHorizontal = Math.min(stripeAngle, 180 - stripeAngle);
    if (fromHorizontal < 22.5) {
      orientation = 'horizontal';
      repeatLength = alongY.strength >= PERIODIC ? alongY.period : null;
      axisLength = image.height;
    } else if (fromHorizontal > 67.5) {
      orientation = 'vertical';
      repeatLength = alongX.strength >= PERIODIC ? alongX.period : null;
    } else {
      orientation = 'diagonal';
      const best = alongX.strength >= alongY.strength ? alongX : alongY;
      repeatLength = best.strength >= PERIODIC ? best.period : null;
      axisLength = best === alongX ? image.width : image.height;
    }
    kind = repeatLength !== null ? 'stripes' : 'directional';
  } else if (alongX.period !== null && alongY.period !== null) {
    orientation = 'check';
    kind = 'check';
    repeatLength = Math.max(alongX.period, alongY.period);
  }
  const repeats = repeatLength !== null ? axisLength / repeatLength : null;
  return {
    kind,
    orientation,
    periodX: alongX.period,
    periodY: alongY.period,
    strengthX: alongX.strength,
    strengthY: alongY.strength,
    coherence,
    stripeAngle,
    featureSize,
    scale: scaleOf(repeats, featureSize / shortSide),
    repeats,
  };
}
