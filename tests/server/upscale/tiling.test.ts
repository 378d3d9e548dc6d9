// tile_mode → tile grid, following Real-CUGAN's upcunet_v3 per axis, with the
// small-image guard and the engine's memory cap (tiling.ts).
import { describe, expect, it } from 'vitest';

import { planTiles, tileCountsFor, tileCountsForBudget, type TileGrid } from '../../../shared/upscale/tiling.js';

const NO_CAP = 100_000;

function grid(mode: number, width: number, height: number, align: number, maxTile = NO_CAP): TileGrid {
  const { cols, rows } = tileCountsFor(mode, width, height, align, maxTile);
  return planTiles(width, height, align, cols, rows);
}

/** Tile widths along the first row and heights along the first column. */
function sides(g: TileGrid): { widths: number[]; heights: number[] } {
  return {
    widths: g.tiles.filter((t) => t.row === 0).map((t) => t.w),
    heights: g.tiles.filter((t) => t.col === 0).map((t) => t.h),
  };
}

describe('tile_mode grid (2x/4x alignment 2, no memory cap)', () => {
  it('mode 0 is one tile', () => {
    expect(sides(grid(0, 640, 480, 2))).toEqual({ widths: [640], heights: [480] });
  });

  it('mode 1 halves the longer side only', () => {
    expect(sides(grid(1, 640, 480, 2))).toEqual({ widths: [320, 320], heights: [480] });
    expect(sides(grid(1, 480, 640, 2))).toEqual({ widths: [480], heights: [320, 320] });
    // odd sides: crop rounded up to a multiple of 2*align, halved; the last tile takes the rest
    expect(sides(grid(1, 301, 200, 2))).toEqual({ widths: [152, 150], heights: [200] });
  });

  it('mode 2 halves both sides', () => {
    expect(sides(grid(2, 640, 480, 2))).toEqual({ widths: [320, 320], heights: [240, 240] });
  });

  it('mode 3 cuts each side in three (upcunet_v3 crop: side rounded up to a multiple of 6, then /3)', () => {
    expect(sides(grid(3, 640, 480, 2))).toEqual({ widths: [214, 214, 212], heights: [160, 160, 160] });
  });

  it('mode 4 cuts each side in four', () => {
    expect(sides(grid(4, 1024, 800, 2))).toEqual({
      widths: [256, 256, 256, 256],
      heights: [200, 200, 200, 200],
    });
  });

  it('3x aligns tiles to 4 pixels (crop a multiple of 4n, then /n)', () => {
    expect(sides(grid(3, 640, 480, 4))).toEqual({ widths: [216, 216, 208], heights: [160, 160, 160] });
    expect(sides(grid(1, 641, 100, 4))).toEqual({ widths: [324, 320], heights: [100] });
  });

  it('tiles partition the aligned image exactly in every mode', () => {
    for (const mode of [0, 1, 2, 3, 4])
      for (const [w, h, align] of [
        [640, 480, 2],
        [333, 517, 2],
        [701, 299, 4],
      ] as const) {
        const g = grid(mode, w, h, align, 160);
        let area = 0;
        for (const t of g.tiles) {
          area += t.w * t.h;
          expect(t.x % align).toBe(0);
          expect(t.y % align).toBe(0);
          expect(t.w).toBeLessThanOrEqual(160);
          expect(t.h).toBeLessThanOrEqual(160);
        }
        expect(area).toBe(g.coreW * g.coreH);
        expect(g.tiles).toHaveLength(g.cols.length * g.rows.length);
      }
  });
});

describe('small-image guard (modes 2-4)', () => {
  it('never cuts a side into tiles under 128 px', () => {
    // 480 / 4 = 120 < 128: three rows instead of four
    expect(sides(grid(4, 640, 480, 2))).toEqual({ widths: [160, 160, 160, 160], heights: [160, 160, 160] });
    expect(sides(grid(3, 300, 300, 2))).toEqual({ widths: [150, 150], heights: [150, 150] });
  });

  it('leaves sides under 256 px whole, and tiny images as one tile', () => {
    expect(sides(grid(4, 200, 100, 2))).toEqual({ widths: [200], heights: [100] });
    expect(sides(grid(2, 255, 1000, 2))).toEqual({ widths: [256], heights: [500, 500] });
    for (const mode of [2, 3, 4]) expect(grid(mode, 20, 12, 2).tiles).toHaveLength(1);
  });
});

describe('memory cap', () => {
  it('adds tiles on an axis whose mode tile would exceed maxTile', () => {
    // mode 0 at 192 px: 640 -> 4 columns of 160, 480 -> 3 rows of 160
    expect(sides(grid(0, 640, 480, 2, 192))).toEqual({
      widths: [160, 160, 160, 160],
      heights: [160, 160, 160],
    });
    // mode 1 on a 2000 px side: the cap, not the halving, decides
    expect(grid(1, 2000, 100, 2, 192).cols).toHaveLength(11);
    // the cap is rounded down to the alignment
    expect(Math.max(...grid(0, 1000, 1000, 4, 190).tiles.map((t) => t.w))).toBeLessThanOrEqual(188);
  });

  it('keeps the mode grid when it already fits the cap', () => {
    expect(sides(grid(3, 480, 480, 2, 192))).toEqual({ widths: [160, 160, 160], heights: [160, 160, 160] });
    expect(grid(4, 1024, 1024, 2, 300).tiles).toHaveLength(16);
  });
});

describe('tiles sized by a memory budget (tileCountsForBudget)', () => {
  const P = 18;
  const padded = (g: TileGrid): number =>
    Math.max(...g.tiles.map((t) => (t.w + 2 * P) * (t.h + 2 * P)));
  const budgetGrid = (mode: number, w: number, h: number, maxPx: number, untiledPx = 0): TileGrid => {
    const { cols, rows } = tileCountsForBudget(mode, w, h, 2, P, maxPx, untiledPx);
    return planTiles(w, h, 2, cols, rows);
  };

  it('runs untiled when the whole image fits the one-graph budget', () => {
    expect(budgetGrid(0, 640, 480, 10_000, 1_000_000).tiles).toHaveLength(1);
  });

  it('uses the fewest tiles whose padded area fits, never over the budget', () => {
    // 640x480 with room for half the image: two tiles, not the fixed 192 px side's twelve
    const g = budgetGrid(0, 640, 480, 200_000);
    expect(g.tiles).toHaveLength(2);
    expect(padded(g)).toBeLessThanOrEqual(200_000);
    for (const maxPx of [30_000, 60_000, 100_000, 150_000, 400_000]) {
      const b = budgetGrid(0, 1632, 1224, maxPx);
      expect(padded(b)).toBeLessThanOrEqual(maxPx);
      // one tile fewer would not fit: every grid with fewer tiles is over the budget
      for (let cols = 1; cols <= 40; cols++)
        for (let rows = 1; rows <= 40; rows++) {
          const other = planTiles(1632, 1224, 2, cols, rows);
          if (other.tiles.length < b.tiles.length) expect(padded(other)).toBeGreaterThan(maxPx);
        }
    }
  });

  it('a larger budget never gives more tiles', () => {
    let last = Infinity;
    for (const maxPx of [20_000, 40_000, 80_000, 160_000, 320_000]) {
      const n = budgetGrid(0, 2048, 2048, maxPx).tiles.length;
      expect(n).toBeLessThanOrEqual(last);
      last = n;
    }
  });

  it('keeps at least the tiles tile_mode asks for', () => {
    expect(budgetGrid(2, 640, 480, 10_000_000).tiles).toHaveLength(4);
    expect(budgetGrid(1, 640, 480, 10_000_000).tiles).toHaveLength(2);
  });

  it('falls back to small tiles when nothing fits', () => {
    const g = budgetGrid(0, 640, 480, 10);
    expect(Math.max(...g.tiles.map((t) => t.w))).toBeLessThanOrEqual(64);
  });
});
