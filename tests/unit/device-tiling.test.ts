// The on-device upscaler tiles with the server's own tiling module; what it chooses itself is the
// tile side, from the device's memory.
import { describe, expect, it } from 'vitest';
import { tileSideFor } from '../../src/workers/upscale-local/tile-size';

describe('on-device tiling', () => {
  it('chooses smaller tiles on devices with less memory', () => {
    expect(tileSideFor(1)).toBeLessThan(tileSideFor(4));
    expect(tileSideFor(4)).toBeLessThan(tileSideFor(8));
    expect(tileSideFor(undefined)).toBe(tileSideFor(4));
  });
});
