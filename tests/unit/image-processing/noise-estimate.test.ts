import { describe, expect, it } from 'vitest';
import {
  classifyNoise,
  estimateNoise,
  modelForLevel,
  type RgbaPixels,
} from '../../../src/lib/noise/noise-estimate';

const W = 256;
const H = 192;

/** Deterministic Gaussian noise (Box–Muller on a small LCG). */
function gaussian(seed: number): () => number {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return (s + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** A smooth, photo-like field: gradients plus a gentle wave, like a clean PNG render. */
function clean(x: number, y: number): number {
  return 40 + x * 0.5 + y * 0.3 + 20 * Math.sin(x / 23) * Math.cos(y / 31);
}

function image(value: (x: number, y: number) => number, width = W, height = H): RgbaPixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const v = value(x, y);
      const i = (y * width + x) * 4;
      data[i] = v + 6;
      data[i + 1] = v;
      data[i + 2] = v - 6;
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

/** What a very low JPEG quality does: each 8×8 block keeps little more than its mean. */
function blocky(
  strength: number,
  base: (x: number, y: number) => number = clean,
): (x: number, y: number) => number {
  return (x, y) => {
    const bx = x - (x % 8);
    const by = y - (y % 8);
    let sum = 0;
    for (let j = 0; j < 8; j += 1) for (let i = 0; i < 8; i += 1) sum += base(bx + i, by + j);
    const mean = sum / 64;
    return mean * strength + base(x, y) * (1 - strength);
  };
}

describe('noise estimate', () => {
  it('calls a clean gradient image clean and suggests conservative', () => {
    const estimate = estimateNoise(image(clean));
    expect(estimate.blockiness).toBeLessThan(1.1);
    expect(estimate.noiseSigma).toBeLessThan(1.5);
    expect(estimate.level).toBe('conservative');
    expect(estimate.reasonKey).toBe('imageProcessing.noise.reason.clean');
  });

  it('sees 8×8 quantisation as heavy JPEG compression and suggests denoise3x', () => {
    const estimate = estimateNoise(image(blocky(1)));
    expect(estimate.blockiness).toBeGreaterThan(1.5);
    expect(estimate.level).toBe('denoise3x');
    expect(estimate.reason).toBe('heavyJpeg');
  });

  it('finds the block grid even when the image was cropped off it', () => {
    const shifted = blocky(1);
    const estimate = estimateNoise(image((x, y) => shifted(x + 3, y + 5)));
    expect(estimate.level).toBe('denoise3x');
  });

  it('puts milder blocking in between', () => {
    const estimate = estimateNoise(image(blocky(0.12)));
    expect(['denoise1x', 'denoise2x']).toContain(estimate.level);
  });

  it('measures Gaussian noise close to its true sigma', () => {
    for (const sigma of [3, 6, 15]) {
      const noise = gaussian(sigma);
      const estimate = estimateNoise(image((x, y) => clean(x, y) + sigma * noise()));
      expect(estimate.noiseSigma).toBeGreaterThan(sigma * 0.7);
      expect(estimate.noiseSigma).toBeLessThan(sigma * 1.3);
    }
  });

  it('suggests denoise3x for a very noisy image and a light or medium level for some noise', () => {
    const heavy = gaussian(1);
    expect(estimateNoise(image((x, y) => clean(x, y) + 12 * heavy())).reason).toBe('heavyNoise');
    const some = gaussian(2);
    expect(['denoise1x', 'denoise2x']).toContain(
      estimateNoise(image((x, y) => clean(x, y) + 4 * some())).level,
    );
  });

  it('handles flat, tiny and large images', () => {
    expect(estimateNoise(image(() => 128)).level).toBe('conservative');
    expect(estimateNoise(image(() => 128, 2, 2)).level).toBe('conservative');
    const large = estimateNoise(
      image(
        blocky(1, (x, y) => clean(x / 5, y / 5)),
        1200,
        900,
      ),
    );
    expect(large.level).toBe('denoise3x');
    // A 1200x900 image is built pixel by pixel in JavaScript: seconds on a loaded two-core machine.
  }, 30_000);

  it('orders the thresholds as documented', () => {
    expect(classifyNoise(1.0, 0.5).level).toBe('conservative');
    expect(classifyNoise(1.2, 0.5).level).toBe('denoise1x');
    expect(classifyNoise(1.0, 3).level).toBe('denoise1x');
    expect(classifyNoise(1.0, 5).level).toBe('denoise2x');
    expect(classifyNoise(1.4, 0.5).level).toBe('denoise2x');
    expect(classifyNoise(1.0, 12).level).toBe('denoise3x');
  });

  it('maps levels to models the scale actually has', () => {
    const fourX = ['up4x-conservative', 'up4x-no-denoise', 'up4x-denoise3x'];
    expect(modelForLevel('denoise2x', 2)).toBe('up2x-denoise2x');
    expect(modelForLevel('denoise1x', 4, fourX)).toBe('up4x-conservative');
    expect(modelForLevel('denoise2x', 4, fourX)).toBe('up4x-denoise3x');
    expect(modelForLevel('denoise3x', 4, fourX)).toBe('up4x-denoise3x');
  });
});
