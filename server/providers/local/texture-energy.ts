// Texture energy: how busy the surface is at the finest scale (weave, slub, grain), as the median
// absolute Laplacian of lightness mapped to 0..1. The median, not the mean: the edges of a printed
// stripe or motif cover few pixels and are pattern, not texture. A plain smooth surface or a clean
// print is near 0, a coarse weave well above 0.3.

export type TextureLevel = 'smooth' | 'fine' | 'pronounced';

export interface TextureFacts {
  /** 0..1 */
  energy: number;
  level: TextureLevel;
}

/** Median |Laplacian| (L* units) that counts as fully textured. */
const FULL_TEXTURE = 8;
/** Histogram resolution of |Laplacian| values (L* units per bin). */
const BIN = 0.05;
const BINS = 4000;

export function textureEnergy(l: Float32Array, width: number, height: number): TextureFacts {
  const histogram = new Uint32Array(BINS);
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap =
        4 * (l[i] as number) - (l[i - 1] as number) - (l[i + 1] as number) - (l[i - width] as number) - (l[i + width] as number);
      const bin = Math.min(BINS - 1, Math.floor(Math.abs(lap) / BIN));
      histogram[bin] = (histogram[bin] as number) + 1;
      count++;
    }
  }
  let median = 0;
  for (let bin = 0, seen = 0; bin < BINS; bin++) {
    seen += histogram[bin] as number;
    if (seen * 2 >= count) {
      median = (bin + 0.5) * BIN;
      break;
    }
  }
  const energy = count ? Math.min(1, median / FULL_TEXTURE) : 0;
  return { energy, level: energy < 0.08 ? 'smooth' : energy < 0.3 ? 'fine' : 'pronounced' };
}
