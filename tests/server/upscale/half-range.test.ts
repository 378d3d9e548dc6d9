// The float16 range check the engine runs over every map it caches (WebAssembly SIMD), held to
// the plain definition: a value is past the range when its five exponent bits are all set.
import { readFileSync } from 'node:fs';
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';

import { AlignedPool } from '../../../server/upscale/aligned-pool.js';
import { outOfHalfRange } from '../../../server/upscale/half-range.js';

const INF = 0x7c00;
const NEG_INF = 0xfc00;
const NAN = 0x7e00;
const LARGEST = 0x7bff; // 65504, still in range
/** the module checks maps in blocks of this many values */
const BLOCK = 512 * 1024;

describe('the float16 range check', () => {
  it('tells every bit pattern past the range from every one within it, in a vector step and in the tail', () => {
    // 19 values: two 8-value steps and a tail of 3; the pattern goes in a step and in the tail
    const map = new Uint16Array(19);
    for (let bits = 0; bits < 65536; bits++) {
      const past = (bits & 0x7c00) === 0x7c00;
      for (const at of [5, 17]) {
        map.fill(0x3c00);
        map[at] = bits;
        if (outOfHalfRange(map) !== past) expect.fail(`bits ${bits.toString(16)} at ${at}: ${!past}`);
      }
    }
  });

  it('finds a value past the range wherever it is in a map, of any length and start', () => {
    const buffer = new Uint16Array(60);
    // every length and every start, odd ones too (a map need not start on a 4-byte boundary)
    for (let start = 0; start < 3; start++)
      for (let length = 0; length <= 40; length++) {
        const map = buffer.subarray(start, start + length);
        map.fill(LARGEST);
        expect(outOfHalfRange(map), `start ${start}, length ${length}`).toBe(false);
        for (let at = 0; at < length; at++)
          for (const bad of [INF, NEG_INF, NAN]) {
            map.fill(0x3c00);
            map[at] = bad;
            expect(outOfHalfRange(map), `start ${start}, length ${length}, at ${at}`).toBe(true);
          }
      }
    // what lies outside the map is not read
    buffer.fill(INF);
    buffer.subarray(5, 10).fill(0);
    expect(outOfHalfRange(buffer.subarray(5, 10))).toBe(false);
  });

  it('checks maps longer than its block, across the blocks, and leaves nothing of one map for the next', () => {
    const long = new Uint16Array(2 * BLOCK + 11).fill(LARGEST);
    expect(outOfHalfRange(long)).toBe(false);
    for (const at of [0, BLOCK - 1, BLOCK, 2 * BLOCK - 1, 2 * BLOCK, 2 * BLOCK + 10]) {
      long[at] = NEG_INF;
      expect(outOfHalfRange(long), `at ${at}`).toBe(true);
      long[at] = LARGEST;
    }
    // a long map past the range, then a short one within it: the short one's answer is its own
    long[BLOCK + 3] = INF;
    expect(outOfHalfRange(long)).toBe(true);
    expect(outOfHalfRange(new Uint16Array(9).fill(1))).toBe(false);
    expect(outOfHalfRange(new Uint16Array(0))).toBe(false);
  });

  it("checks a map in an aligned pool's buffer where it is, and nothing of the buffer around it", () => {
    const pool = new AlignedPool(0);
    const buffer = new Uint16Array(pool.take(2 * (BLOCK + 64)));
    for (const [start, length] of [
      [0, 0],
      [1, 7],
      [3, 19],
      [8, BLOCK + 9],
      [40, BLOCK - 40],
    ] as const) {
      buffer.fill(INF);
      const map = buffer.subarray(start, start + length);
      map.fill(LARGEST);
      expect(outOfHalfRange(map), `start ${start}, length ${length}`).toBe(false);
      for (const at of [0, length >> 1, length - 1].filter((i) => i >= 0 && i < length)) {
        map[at] = NAN;
        expect(outOfHalfRange(map), `start ${start}, length ${length}, at ${at}`).toBe(true);
        map[at] = LARGEST;
      }
    }
  });

  it('runs the bytes half-range.wat assembles to', async () => {
    const source = readFileSync(new URL('../../../server/upscale/half-range.wat', import.meta.url), 'utf8');
    const wabt = await wabtInit();
    const module = wabt.parseWat('half-range.wat', source, { simd: true });
    const { buffer } = module.toBinary({});
    module.destroy();
    const shipped = /const HALF_RANGE_WASM =\s*'([^']+)'/.exec(
      readFileSync(new URL('../../../server/upscale/half-range.ts', import.meta.url), 'utf8'),
    )?.[1];
    expect(shipped).toBeDefined();
    expect(Buffer.from(buffer).toString('base64')).toBe(shipped);
  });
});
