// The on-device upscaler tiles with a browser copy of the server's tiling: both must give the same
// grids and owned SE ranges, or the device's output would drift from the server's.
import { describe, expect, it } from 'vitest';
import * as server from '../../server/upscale/tiling';
import * as device from '../../src/workers/upscale-local/tiling';
import { tileSideFor } from '../../src/workers/upscale-local/tile-size';

const levels = [
  { ratio: 0.5, offset: -6 },
  { ratio: 1, offset: -22 },
  { ratio: 0.5, offset: -15 },
  { ratio: 1, offset: -34 },
];

describe('on-device tiling', () => {
  it('matches the server for every mode, size and tile cap', () => {
    for (const [w, h] of [[32, 32], [33, 17], [300, 200], [1600, 1200], [1, 999]] as const) {
      for (const mode of [0, 1, 2, 3, 4]) {
        for (const cap of [96, 128, 192]) {
          const a = server.tileCountsFor(mode, w, h, 2, cap);
          expect(device.tileCountsFor(mode, w, h, 2, cap)).toEqual(a);
          const ga = server.planTiles(w, h, 2, a.cols, a.rows);
          const gb = device.planTiles(w, h, 2, a.cols, a.rows);
          expect(gb).toEqual(ga);
          for (const lv of levels)
            for (let i = 0; i < ga.cols.length; i++)
              expect(device.ownedRange(gb.cols, i, gb.coreW, 18, lv)).toEqual(
                server.ownedRange(ga.cols, i, ga.coreW, 18, lv),
              );
        }
      }
    }
  });

  it('chooses smaller tiles on devices with less memory', () => {
    expect(tileSideFor(1)).toBeLessThan(tileSideFor(4));
    expect(tileSideFor(4)).toBeLessThan(tileSideFor(8));
    expect(tileSideFor(undefined)).toBe(tileSideFor(4));
  });
});
