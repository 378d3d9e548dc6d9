// How a pattern repeats along one axis: the autocorrelation of every line (row or column) of the
// image, averaged over lines and channels. A stripe or check repeat shows as a peak at its period.
// Power spectra add, so the average is one inverse FFT of the summed line spectra.

export type Axis = 'x' | 'y';

/** Planes of one image (e.g. L, a, b), each width * height, row-major. */
export interface Planes {
  width: number;
  height: number;
  planes: readonly Float32Array[];
}

export interface Periodicity {
  /** Repeat length in pixels (sub-pixel), or null when there is no clear repeat. */
  period: number | null;
  /** Autocorrelation at the period, 0..1 (1 = an exact repeat). */
  strength: number;
  /** Lag at which the autocorrelation first falls below 0.5: the size of the pattern's features. */
  correlationLength: number;
}

/** In-place iterative radix-2 FFT; inverse when `inverse`, unscaled. */
function fft(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = re[i] as number;
      re[i] = re[j] as number;
      re[j] = tr;
      const ti = im[i] as number;
      im[i] = im[j] as number;
      im[j] = ti;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const p = i + k;
        const q = p + len / 2;
        const xr = (re[q] as number) * cr - (im[q] as number) * ci;
        const xi = (re[q] as number) * ci + (im[q] as number) * cr;
        re[q] = (re[p] as number) - xr;
        im[q] = (im[p] as number) - xi;
        re[p] = (re[p] as number) + xr;
        im[p] = (im[p] as number) + xi;
        const ncr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = ncr;
      }
    }
  }
}

/**
 * Normalised autocorrelation along an axis for lags 0..maxLag (R[0] = 1). Each line has its own
 * mean removed, so a horizontal stripe has no signal along x. Lags are unbiased (divided by the
 * number of overlapping pixels). All zeros when the image is flat along the axis.
 */
export function lineAutocorrelation(image: Planes, axis: Axis, maxLag?: number, lineStep = 1): Float64Array {
  const length = axis === 'x' ? image.width : image.height;
  const lines = axis === 'x' ? image.height : image.width;
  const lagLimit = Math.min(maxLag ?? Math.floor(length / 2), length - 1);
  let size = 1;
  while (size < 2 * length) size <<= 1;
  const power = new Float64Array(size);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (const plane of image.planes) {
    for (let line = 0; line < lines; line += lineStep) {
      re.fill(0);
      im.fill(0);
      let mean = 0;
      for (let i = 0; i < length; i++) {
        const v = (axis === 'x' ? plane[line * image.width + i] : plane[i * image.width + line]) ?? 0;
        re[i] = v;
        mean += v;
      }
      mean /= length;
      for (let i = 0; i < length; i++) re[i] = (re[i] as number) - mean;
      fft(re, im, false);
      for (let k = 0; k < size; k++) power[k] = (power[k] as number) + (re[k] as number) ** 2 + (im[k] as number) ** 2;
    }
  }
  const zeros = new Float64Array(size);
  fft(power, zeros, true);
  const out = new Float64Array(lagLimit + 1);
  const r0 = (power[0] as number) / length;
  if (!(r0 > 1e-9)) return out;
  for (let lag = 0; lag <= lagLimit; lag++) out[lag] = (power[lag] as number) / (length - lag) / r0;
  return out;
}

/** First lag where the autocorrelation falls below 0.5 (interpolated). */
export function correlationLength(acf: Float64Array): number {
  for (let lag = 1; lag < acf.length; lag++) {
    const v = acf[lag] as number;
    if (v < 0.5) {
      const prev = acf[lag - 1] as number;
      return lag - 1 + (prev - 0.5) / (prev - v);
    }
  }
  return acf.length;
}

/**
 * The repeat period from an autocorrelation: the smallest lag whose peak is nearly as strong as the
 * strongest peak (so the fundamental, not a multiple), provided a real valley lies before it.
 */
export function findPeriod(acf: Float64Array, minLag = 2, minStrength = 0.3): Periodicity {
  const corr = correlationLength(acf);
  const peaks: { lag: number; value: number }[] = [];
  let valley = 1;
  for (let lag = 1; lag < acf.length - 1; lag++) {
    const v = acf[lag] as number;
    if (v < valley) valley = v;
    if (lag < minLag) continue;
    if (v >= (acf[lag - 1] as number) && v > (acf[lag + 1] as number) && v - valley > 0.25) {
      peaks.push({ lag, value: v });
    }
  }
  if (peaks.length === 0) return { period: null, strength: 0, correlationLength: corr };
  const strongest = Math.max(...peaks.map((p) => p.value));
  // No peak reaches the bar (all may lie below zero, where 0.8 × the strongest is above every one).
  if (strongest < minStrength) return { period: null, strength: Math.max(0, strongest), correlationLength: corr };
  const pick = peaks.find((p) => p.value >= 0.8 * strongest) as { lag: number; value: number };
  if (pick.value < minStrength) return { period: null, strength: pick.value, correlationLength: corr };
  const before = acf[pick.lag - 1] as number;
  const after = acf[pick.lag + 1] as number;
  const curvature = before - 2 * pick.value + after;
  const offset = curvature < 0 ? (0.5 * (before - after)) / curvature : 0;
  return {
    period: pick.lag + Math.max(-0.5, Math.min(0.5, offset)),
    strength: Math.min(1, pick.value),
    correlationLength: corr,
  };
}

export function periodicity(image: Planes, axis: Axis, lineStep = 1): Periodicity {
  return findPeriod(lineAutocorrelation(image, axis, undefined, lineStep));
}
