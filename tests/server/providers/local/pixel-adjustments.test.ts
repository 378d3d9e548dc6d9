import { describe, expect, it } from 'vitest';
import { rgbToLab } from '../../../../server/providers/local/color-space.js';
import { labStats, transferColors } from '../../../../server/providers/local/color-transfer.js';
import type { Raster } from '../../../../server/providers/local/raster.js';
import { adjustTone, scaleAdjustment } from '../../../../server/providers/local/tone-adjust.js';
import { paint, RED, WHITE, verticalStripes } from './test-images.js';

const raster = (w: number, h: number, f: Parameters<typeof paint>[2]): Raster => ({ width: w, height: h, data: new Uint8Array(paint(w, h, f)) });
const grey = raster(32, 32, (x, y) => [100 + x, 110 + y, 120]);
const meanLab = (r: Raster) => labStats(r).mean;

describe('tone adjustments', () => {
  it('warmth moves toward amber or blue, lightness up or down, saturation 0 is grey', () => {
    const [, a0, b0] = meanLab(grey);
    expect(meanLab(adjustTone(grey, { warmth: 0.6 }))[2]).toBeGreaterThan(b0 + 6);
    expect(meanLab(adjustTone(grey, { warmth: -0.6 }))[2]).toBeLessThan(b0 - 6);
    expect(meanLab(adjustTone(grey, { lightness: 0.4 }))[0]).toBeGreaterThan(meanLab(grey)[0] + 5);
    expect(meanLab(adjustTone(grey, { lightness: -0.4 }))[0]).toBeLessThan(meanLab(grey)[0] - 5);
    const mono = adjustTone(grey, { saturation: 0 });
    for (let o = 0; o < mono.data.length; o += 3) {
      expect(Math.abs(mono.data[o]! - mono.data[o + 2]!)).toBeLessThanOrEqual(2);
    }
    expect(Math.abs(meanLab(mono)[1])).toBeLessThan(Math.abs(a0) + 0.5);
  });

  it('a tint moves colour toward the named colour and keeps lightness', () => {
    const tinted = adjustTone(grey, { tint: { lab: rgbToLab(224, 36, 36), amount: 0.4 } });
    expect(meanLab(tinted)[1]).toBeGreaterThan(20);
    expect(Math.abs(meanLab(tinted)[0] - meanLab(grey)[0])).toBeLessThan(2);
  });

  it('scaling an adjustment scales each effect', () => {
    const half = scaleAdjustment({ warmth: 1, saturation: 0, contrast: 1.2 }, 0.5);
    expect(half).toMatchObject({ warmth: 0.5, saturation: 0.5, contrast: 1.1 });
  });
});

describe('colour transfer', () => {
  it("moves a photo's colour statistics toward the pattern's", () => {
    const pattern = raster(32, 32, verticalStripes(8, RED, WHITE));
    const target = labStats(pattern);
    const moved = transferColors(grey, target, { lightness: 0, color: 1 });
    const after = meanLab(moved);
    expect(Math.abs(after[1] - target.mean[1])).toBeLessThan(3);
    expect(Math.abs(after[0] - meanLab(grey)[0])).toBeLessThan(2);
    const half = transferColors(grey, target, { lightness: 0, color: 0.5 });
    expect(meanLab(half)[1]).toBeGreaterThan(meanLab(grey)[1] + 5);
    expect(meanLab(half)[1]).toBeLessThan(after[1] - 5);
  });
});
