// Tile layout. Tiles partition the aligned "core" of the image; each tile reads
// `prepad` extra pixels on every side (real neighbours inside the image, reflected
// outside), which is exactly the context the valid convolutions consume, so a
// tile's output equals the untiled output once the SE means are shared.
//
// tile_mode (Real-CUGAN's meaning, bounded by memory):
//   0  no tiling requested: one tile when the image fits the memory-safe tile
//      size, otherwise the fewest tiles that fit (the result is the same as
//      untiled because SE means are shared exactly);
//   1  halve the longer side (2 tiles);
//   n>=2  about n tiles per side (side rounded up to a multiple of 2n, then /n),
//      with a tile's short side kept >= 128 px (upcunet_v3 divides by zero there).
// In every mode a tile side never exceeds `maxTile`, the memory-safe size.

import type { SeLevel } from './converter.js';

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
  // Equal aligned chunks; the last one takes the remainder.
  const size = roundUp(Math.ceil(core / parts), align);
  const starts: number[] = [];
  for (let s = 0; s < core; s += size) starts.push(s);
  return starts;
}

export function tileSideFor(mode: number, width: number, height: number, align: number, maxTile: number): { tx: number; ty: number } {
  const cap = Math.max(align, Math.floor(maxTile / align) * align);
  const fit = (side: number, parts: number): number => roundUp(Math.ceil(roundUp(side, align) / parts), align);
  let tx = roundUp(width, align);
  let ty = roundUp(height, align);
  if (mode === 1) {
    if (width >= height) tx = fit(width, 2);
    else ty = fit(height, 2);
  } else if (mode >= 2) {
    // Real-CUGAN: crop size rounded up to a multiple of 2n, then divided by n.
    const t = Math.min(roundUp(width, 2 * mode) / mode, roundUp(height, 2 * mode) / mode);
    const side = Math.max(roundUp(t, align), Math.min(128, roundUp(Math.min(width, height), align)));
    tx = Math.min(tx, side);
    ty = Math.min(ty, side);
  }
  return { tx: Math.min(tx, cap), ty: Math.min(ty, cap) };
}

export function planTiles(width: number, height: number, align: number, tx: number, ty: number): TileGrid {
  const coreW = roundUp(width, align);
  const coreH = roundUp(height, align);
  const cols = split(coreW, Math.ceil(coreW / tx), align);
  const rows = split(coreH, Math.ceil(coreH / ty), align);
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
export function ownedRange(starts: number[], index: number, core: number, prepad: number, lv: SeLevel): [number, number] {
  const global = (x: number): number => lv.ratio * x;
  const overlap = lv.ratio * 2 * prepad + lv.offset; // how far neighbouring tiles' maps overlap
  if (overlap < 0) throw new Error('tiles do not overlap at an SE level: halo too small');
  const cut = (i: number): number => (i === 0 ? 0 : global(starts[i]!) + Math.floor(overlap / 2));
  const end = index + 1 < starts.length ? cut(index + 1) : lv.ratio * (core + 2 * prepad) + lv.offset;
  const origin = global(starts[index]!);
  return [cut(index) - origin, end - origin];
}

/** Side of SE level `lv`'s map for the whole (padded, aligned) image. */
export const levelSide = (core: number, prepad: number, lv: SeLevel): number => lv.ratio * (core + 2 * prepad) + lv.offset;
