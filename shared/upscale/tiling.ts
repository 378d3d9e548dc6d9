// Tile layout. Tiles partition the aligned "core" of the image; each tile reads
// `prepad` extra pixels on every side (real neighbours inside the image, reflected
// outside), which is exactly the context the valid convolutions consume, so a
// tile's output equals the untiled output once the SE means are shared.
//
// tile_mode follows Real-CUGAN's upcunet_v3, which sizes height and width
// separately (a crop size per axis, rounded up so each tile stays aligned):
//   0  no tiling: one tile;
//   1  halve the longer side (2 tiles; the width when the image is square);
//   n>=2  n tiles per side: each side rounded up to a multiple of align*n, then /n.
// Small-image guard: for n >= 2, a side is cut into at most floor(side / 128)
// pieces, so no tile side drops below 128 px because of the mode (upcunet_v3
// divides by zero there); a side under 128 px stays whole.
// Deliberate difference, for memory: a tile side never exceeds `maxTile` (the
// engine's memory-safe size). When Real-CUGAN's tile would be larger, that axis
// gets more, equal tiles, so for large images modes 0, 2, 3 and 4 can give the
// same grid. The output does not depend on the grid (SE means are shared
// exactly); only speed and memory do.

import type { SeLevel } from './se-level.js';

export interface Tile {
  /** column / row index in the tile grid */
  col: number;
  row: number;
  /** core rectangle in aligned image coordinates */
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TileGrid {
  /** aligned core size (image size rounded up to `align`) */
  coreW: number;
  coreH: number;
  cols: number[];
  rows: number[];
  tiles: Tile[];
}

const roundUp = (v: number, a: number): number => Math.ceil(v / a) * a;

function split(core: number, parts: number, align: number): number[] {
  // Equal aligned chunks, the last one takes the remainder; for n parts this is
  // upcunet_v3's crop size (side rounded up to a multiple of align*n, then /n).
  const size = roundUp(Math.ceil(core / parts), align);
  const starts: number[] = [];
  for (let s = 0; s < core; s += size) starts.push(s);
  return starts;
}

export const MIN_MODE_TILE_SIDE = 128;

/** Tiles per axis (columns, rows) for a tile_mode; see the header comment. */
export function tileCountsFor(
  mode: number,
  width: number,
  height: number,
  align: number,
  maxTile: number,
): { cols: number; rows: number } {
  const cap = Math.max(align, Math.floor(maxTile / align) * align);
  const modeParts = (side: number, isLonger: boolean): number => {
    if (mode === 1) return isLonger ? 2 : 1;
    if (mode >= 2) return Math.max(1, Math.min(mode, Math.floor(side / MIN_MODE_TILE_SIDE)));
    return 1;
  };
  const parts = (side: number, isLonger: boolean): number =>
    Math.max(modeParts(side, isLonger), Math.ceil(roundUp(side, align) / cap));
  return { cols: parts(width, width >= height), rows: parts(height, width < height) };
}

/** Splits the aligned core into about `nCols` x `nRows` aligned tiles (fewer when alignment leaves nothing for the last). */
export function planTiles(
  width: number,
  height: number,
  align: number,
  nCols: number,
  nRows: number,
): TileGrid {
  const coreW = roundUp(width, align);
  const coreH = roundUp(height, align);
  const cols = split(coreW, nCols, align);
  const rows = split(coreH, nRows, align);
  const tiles: Tile[] = [];
  rows.forEach((y, row) => {
    const h = (rows[row + 1] ?? coreH) - y;
    cols.forEach((x, col) => {
      const w = (cols[col + 1] ?? coreW) - x;
      tiles.push({ col, row, x, y, w, h });
    });
  });
  return { coreW, coreH, cols, rows, tiles };
}

/**
 * The part of SE level `lv`'s feature map a tile owns, in tile-local indices,
 * so that the owned parts of all tiles partition the untiled feature map.
 */
export function ownedRange(
  starts: number[],
  index: number,
  core: number,
  prepad: number,
  lv: SeLevel,
): [number, number] {
  const global = (x: number): number => lv.ratio * x;
  const overlap = lv.ratio * 2 * prepad + lv.offset; // how far neighbouring tiles' maps overlap
  if (overlap < 0) throw new Error('tiles do not overlap at an SE level: halo too small');
  const cut = (i: number): number => (i === 0 ? 0 : global(starts[i]!) + Math.floor(overlap / 2));
  const end = index + 1 < starts.length ? cut(index + 1) : lv.ratio * (core + 2 * prepad) + lv.offset;
  const origin = global(starts[index]!);
  return [cut(index) - origin, end - origin];
}

/** Side of SE level `lv`'s map for the whole (padded, aligned) image. */
export const levelSide = (core: number, prepad: number, lv: SeLevel): number =>
  lv.ratio * (core + 2 * prepad) + lv.offset;

/**
 * Tiles per axis for a memory budget: the fewest tiles (at least tile_mode's
 * own counts, see tileCountsFor) whose padded input area, (w + 2·prepad) ×
 * (h + 2·prepad), is at most `maxPaddedPixels`; among grids of as many tiles,
 * the one with the smallest largest tile. A single tile is allowed only up to
 * `maxUntiledPixels` (the one-graph path holds the whole network's
 * activations at once, so it needs more per pixel than the staged path).
 * When not even align-sized tiles fit, the finest grid of `minTile`-px tiles.
 */
export function tileCountsForBudget(
  mode: number,
  width: number,
  height: number,
  align: number,
  prepad: number,
  maxPaddedPixels: number,
  maxUntiledPixels: number,
  minTile = 64,
): { cols: number; rows: number } {
  const base = tileCountsFor(mode, width, height, align, Number.MAX_SAFE_INTEGER);
  const coreW = roundUp(width, align);
  const coreH = roundUp(height, align);
  const side = (core: number, parts: number): number => roundUp(Math.ceil(core / parts), align);
  const padded = (cols: number, rows: number): number =>
    (side(coreW, cols) + 2 * prepad) * (side(coreH, rows) + 2 * prepad);
  const untiled = base.cols * base.rows === 1;
  if (untiled && (width + 2 * prepad) * (height + 2 * prepad) <= maxUntiledPixels) return base;
  const maxCols = Math.max(base.cols, Math.ceil(coreW / align));
  const maxRows = Math.max(base.rows, Math.ceil(coreH / align));
  let best: { cols: number; rows: number; n: number; area: number } | undefined;
  for (let cols = base.cols; cols <= maxCols; cols++) {
    // the fewest rows that fit with this many columns
    let rows = base.rows;
    while (rows <= maxRows && padded(cols, rows) > maxPaddedPixels) rows++;
    if (rows > maxRows) continue;
    if (cols * rows === 1) rows = 2; // one tile is the untiled case, refused above
    const n = planTiles(width, height, align, cols, rows).tiles.length;
    const area = padded(cols, rows);
    if (!best || n < best.n || (n === best.n && area < best.area)) best = { cols, rows, n, area };
    if (best.n <= cols) break; // more columns cannot give fewer tiles
  }
  if (best) return { cols: best.cols, rows: best.rows };
  return tileCountsFor(mode, width, height, align, minTile);
}
