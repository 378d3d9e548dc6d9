import { describe, expect, it } from 'vitest';
import { measureImage } from '../../../../server/providers/local/image-facts.js';
import { colorName } from '../../../../server/providers/local/color-palette.js';
import {
  BLUE,
  NAVY,
  RED,
  WHITE,
  BEIGE,
  blotches,
  checkerboard,
  diagonalStripes,
  gingham,
  horizontalStripes,
  jpeg,
  png,
  solid,
  verticalStripes,
} from './test-images.js';

describe('image facts', () => {
  it('a red/white vertical stripe with a 16 px period is vertical stripes, period 16, red and white', async () => {
    const facts = await measureImage(await png(256, 256, verticalStripes(16, RED, WHITE)));
    expect(facts.pattern.kind).toBe('stripes');
    expect(facts.pattern.orientation).toBe('vertical');
    expect(facts.pattern.periodX).toBeGreaterThanOrEqual(15);
    expect(facts.pattern.periodX).toBeLessThanOrEqual(17);
    expect(facts.pattern.scale).toBe('fine');
    expect(facts.colors.map((c) => colorName(c.rgb, 'en-US'))).toEqual(expect.arrayContaining(['red', 'white']));
    expect(facts.colors).toHaveLength(2);
    for (const c of facts.colors) expect(c.share).toBeCloseTo(0.5, 1);
    expect(facts.colors.map((c) => c.hex).sort()).toEqual(['#ff0000', '#ffffff']);
    expect(facts.colors.map((c) => colorName(c.rgb, 'zh-CN')).sort()).toEqual(['白色', '红色']);
  });

  it('horizontal stripes and their period, measured on a larger photo-like JPEG', async () => {
    const facts = await measureImage(await jpeg(1024, 768, horizontalStripes(96, NAVY, WHITE)));
    expect(facts.pattern.orientation).toBe('horizontal');
    expect(facts.pattern.kind).toBe('stripes');
    // Measured at 512 px and converted back to the original's pixels.
    expect(facts.pattern.periodY).toBeGreaterThan(94);
    expect(facts.pattern.periodY).toBeLessThan(98);
    expect(facts.pattern.scale).toBe('medium');
    expect(facts.colors.map((c) => colorName(c.rgb, 'en-US'))).toEqual(expect.arrayContaining(['navy', 'white']));
  });

  it('diagonal stripes', async () => {
    const facts = await measureImage(await png(256, 256, diagonalStripes(20, BLUE, WHITE)));
    expect(facts.pattern.orientation).toBe('diagonal');
    expect(facts.pattern.kind).toBe('stripes');
    expect(facts.pattern.periodX).toBeCloseTo(20, 0);
  });

  it('checkerboard and gingham are checks with their repeat', async () => {
    const board = await measureImage(await png(256, 256, checkerboard(32, RED, WHITE)));
    expect(board.pattern.orientation).toBe('check');
    expect(board.pattern.periodX).toBeCloseTo(32, 0);
    expect(board.pattern.periodY).toBeCloseTo(32, 0);
    const check = await measureImage(await png(240, 240, gingham(24)));
    expect(check.pattern.kind).toBe('check');
    expect(check.pattern.periodX).toBeCloseTo(24, 0);
  });

  it('a solid colour has no pattern, and an irregular print no repeat', async () => {
    const plain = await measureImage(await png(128, 128, solid(BEIGE)));
    expect(plain.pattern.kind).toBe('solid');
    expect(plain.pattern.orientation).toBe('none');
    expect(plain.texture.level).toBe('smooth');
    expect(plain.colors).toHaveLength(1);
    expect(colorName(plain.colors[0]!.rgb, 'en-US')).toBe('beige');

    const print = await measureImage(await png(256, 256, blotches(7, 12, RED, WHITE)));
    expect(print.pattern.kind).toBe('print');
    expect(print.pattern.orientation).toBe('none');
    expect(print.pattern.featureSize).toBeGreaterThan(3);
    // A clean print's motif edges are pattern, not surface texture.
    expect(print.texture.level).toBe('smooth');
  });

  it('texture energy: a grainy surface is textured, stripe edges are not', async () => {
    let seed = 1;
    const grain = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return 150 + (seed % 60);
    };
    const grainy = await measureImage(await png(128, 128, () => {
      const v = grain();
      return [v, v - 10, v - 20];
    }));
    expect(grainy.texture.level).toBe('pronounced');
    const stripes = await measureImage(await png(128, 128, verticalStripes(16, RED, WHITE)));
    expect(stripes.texture.energy).toBeLessThan(grainy.texture.energy);
    expect(stripes.texture.level).toBe('smooth');
  });

  it('tone: lightness and contrast', async () => {
    const light = await measureImage(await png(64, 64, solid([240, 238, 230])));
    expect(light.tone.lightness).toBe('light');
    expect(light.tone.contrast).toBe('low');
    const stripes = await measureImage(await png(64, 64, verticalStripes(8, [20, 20, 20], WHITE)));
    expect(stripes.tone.contrast).toBe('high');
  });
});
