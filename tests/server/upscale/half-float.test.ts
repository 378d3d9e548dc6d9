import { describe, expect, it } from 'vitest';

import { halfBits, halfValues } from '../../../server/upscale/half-float.js';

describe('float16 bits', () => {
  it('decodes every bit pattern, and encodes each finite value back to its own bits', () => {
    const values = halfValues();
    let finite = 0;
    for (let bits = 0; bits < 65536; bits++) {
      const v = values[bits]!;
      if (Number.isNaN(v)) continue;
      expect(halfBits(v)).toBe(bits);
      finite++;
    }
    // 2 x 31 exponents x 1024 mantissas are numbers (with the infinities); the rest are NaN
    expect(finite).toBe(2 * 31 * 1024 + 2);
    expect(values[0x3c00]).toBe(1);
    expect(values[0xc000]).toBe(-2);
    expect(values[0x7bff]).toBe(65504);
    expect(values[0x0001]).toBe(2 ** -24);
    expect(values[0x3555]).toBeCloseTo(0.33325, 5);
  });

  it('rounds to the nearest float16, ties to even', () => {
    expect(halfBits(1 + 2 ** -11)).toBe(0x3c00); // halfway between 1 and the next: to even
    expect(halfBits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(halfBits(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01);
    expect(halfBits(1e6)).toBe(0x7c00); // past the largest: infinity
  });

});
