// The repeat finder of the built-in engine's image facts: a period from an autocorrelation, and
// none where no peak is strong enough (including an autocorrelation whose every peak lies below
// zero, as some generated candidates give: it once failed the prompt writer with an internal error).
import { describe, expect, it } from 'vitest';
import { findPeriod, lineAutocorrelation } from '../../../../server/providers/local/repeat-period.js';

describe('findPeriod', () => {
  it('finds the period of a stripe repeat', () => {
    const width = 64;
    const plane = new Float32Array(width * 8);
    for (let y = 0; y < 8; y++) for (let x = 0; x < width; x++) plane[y * width + x] = Math.sin((2 * Math.PI * x) / 8);
    const found = findPeriod(lineAutocorrelation({ width, height: 8, planes: [plane] }, 'x'));
    expect(found.period).toBeCloseTo(8, 0);
    expect(found.strength).toBeGreaterThan(0.8);
  });

  it('answers no period when every peak is below zero', () => {
    // Falls to -1, then rises to small negative peaks with valleys between.
    const acf = Float64Array.from([1, 0.2, -0.9, -0.5, -0.95, -0.55, -0.96, -0.6, -0.97, -0.9]);
    expect(findPeriod(acf)).toEqual({ period: null, strength: 0, correlationLength: expect.any(Number) });
  });

  it('answers no period when the strongest peak is under the bar', () => {
    const acf = Float64Array.from([1, 0.4, -0.3, 0.1, -0.3, 0.12, -0.3, 0.05, -0.3, -0.3]);
    const found = findPeriod(acf);
    expect(found.period).toBeNull();
    expect(found.strength).toBeCloseTo(0.12);
  });
});
