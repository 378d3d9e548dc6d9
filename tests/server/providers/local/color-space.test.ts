import { describe, expect, it } from 'vitest';
import { deltaE2000, hexToRgb, labToRgb, rgbToHex, rgbToLab } from '../../../../server/providers/local/color-space.js';
import { colorName, NAMED_COLORS } from '../../../../server/providers/local/color-palette.js';

describe('colour space', () => {
  it('sRGB -> Lab -> sRGB round-trips every channel value', () => {
    for (let v = 0; v < 256; v += 5) {
      for (const rgb of [
        [v, 0, 0],
        [0, v, 0],
        [0, 0, v],
        [v, v, v],
        [255 - v, v, 128],
      ] as [number, number, number][]) {
        const back = labToRgb(...rgbToLab(...rgb));
        for (let k = 0; k < 3; k++) expect(Math.abs(back[k]! - rgb[k]!)).toBeLessThanOrEqual(1);
      }
    }
    const white = rgbToLab(255, 255, 255);
    expect(white[0]).toBeCloseTo(100, 2);
    expect(Math.abs(white[1])).toBeLessThan(0.01);
  });

  it('CIEDE2000 matches the published test pairs (Sharma, Wu, Dalal 2005)', () => {
    const pairs: [[number, number, number], [number, number, number], number][] = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
    ];
    for (const [a, b, expected] of pairs) {
      expect(deltaE2000(a, b)).toBeCloseTo(expected, 3);
      expect(deltaE2000(b, a)).toBeCloseTo(expected, 3);
    }
  });

  it('hex both ways', () => {
    expect(rgbToHex([255, 0, 16])).toBe('#ff0010');
    expect(hexToRgb('#1C2848')).toEqual([28, 40, 72]);
    expect(() => hexToRgb('red')).toThrow();
  });
});

describe('colour names', () => {
  it('names primaries and neutrals in all five languages', () => {
    expect(colorName([255, 0, 0], 'en-US')).toBe('red');
    expect(colorName([255, 0, 0], 'zh-CN')).toBe('红色');
    expect(colorName([255, 0, 0], 'vi-VN')).toBe('đỏ');
    expect(colorName([255, 0, 0], 'th-TH')).toBe('สีแดง');
    expect(colorName([255, 0, 0], 'id-ID')).toBe('merah');
    expect(colorName([255, 255, 255], 'en-US')).toBe('white');
    expect(colorName([0, 0, 0], 'en-US')).toBe('black');
    expect(colorName([20, 30, 80], 'en-US')).toBe('navy');
    expect(colorName([0, 0, 255], 'en-US')).toBe('royal blue');
    expect(colorName([40, 90, 200], 'en-US')).toBe('blue');
    expect(colorName([255, 255, 0], 'en-US')).toBe('yellow');
    expect(colorName([0, 160, 60], 'en-US')).toBe('green');
    expect(colorName([128, 128, 128], 'en-US')).toBe('grey');
  });

  it('every palette entry is named by itself and has all five names', () => {
    for (const c of NAMED_COLORS) {
      expect(colorName(hexToRgb(c.hex), 'en-US')).toBe(c.names['en-US']);
      for (const lang of ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID'] as const) expect(c.names[lang]).toBeTruthy();
    }
  });
});
