// Reference-compatible input preparation: reflect padding (edge pixel not
// repeated, like ncnn's copy_make_border type 2) read straight from the
// interleaved 8-bit image, so no padded copy of the whole image is kept.

/** Reflect an index into [0, n), bouncing as often as needed (tiny images). */
export function reflectIndex(i: number, n: number): number {
  if (n === 1) return 0;
  const period = 2 * n - 2;
  let m = i % period;
  if (m < 0) m += period;
  return m < n ? m : period - m;
}

/**
 * Planar float tile (NCHW, values /255) of image pixels [x0, x0+tw) x [y0, y0+th)
 * in image coordinates; coordinates outside the image are reflected.
 */
export function extractTile(
  rgb: Uint8Array,
  width: number,
  height: number,
  x0: number,
  y0: number,
  tw: number,
  th: number,
): Float32Array {
  const out = new Float32Array(3 * tw * th);
  const plane = tw * th;
  const cols = new Int32Array(tw);
  for (let x = 0; x < tw; x++) cols[x] = reflectIndex(x0 + x, width) * 3;
  for (let y = 0; y < th; y++) {
    const row = reflectIndex(y0 + y, height) * width * 3;
    const o = y * tw;
    for (let x = 0; x < tw; x++) {
      const p = row + cols[x]!;
      out[o + x] = rgb[p]! / 255;
      out[plane + o + x] = rgb[p + 1]! / 255;
      out[2 * plane + o + x] = rgb[p + 2]! / 255;
    }
  }
  return out;
}

/**
 * Writes a network output tile into the interleaved 8-bit result, the way the
 * reference does: v*255 + 0.5 truncated and clamped. For models whose graph
 * lacks the final residual (4x), the nearest-upsampled input is added first.
 */
export function storeTile(
  outTile: Float32Array,
  tileW: number,
  tileH: number,
  dst: Uint8Array,
  dstW: number,
  dstH: number,
  dx: number,
  dy: number,
  residual?: { rgb: Uint8Array; width: number; scale: number },
): void {
  const plane = tileW * tileH;
  const w = Math.min(tileW, dstW - dx);
  const h = Math.min(tileH, dstH - dy);
  if (!residual) {
    for (let y = 0; y < h; y++) {
      let d = ((dy + y) * dstW + dx) * 3;
      const o = y * tileW;
      for (let x = 0; x < w; x++, d += 3) {
        dst[d] = to8(outTile[o + x]!);
        dst[d + 1] = to8(outTile[plane + o + x]!);
        dst[d + 2] = to8(outTile[2 * plane + o + x]!);
      }
    }
    return;
  }
  // Nearest-upsampled source columns, once per tile rather than per pixel.
  const srcCol = new Int32Array(w);
  for (let x = 0; x < w; x++) srcCol[x] = Math.floor((dx + x) / residual.scale) * 3;
  const src = residual.rgb;
  for (let y = 0; y < h; y++) {
    let d = ((dy + y) * dstW + dx) * 3;
    const o = y * tileW;
    const srcRow = Math.floor((dy + y) / residual.scale) * residual.width * 3;
    for (let x = 0; x < w; x++, d += 3) {
      const s = srcRow + srcCol[x]!;
      dst[d] = to8(outTile[o + x]! + src[s]! / 255);
      dst[d + 1] = to8(outTile[plane + o + x]! + src[s + 1]! / 255);
      dst[d + 2] = to8(outTile[2 * plane + o + x]! + src[s + 2]! / 255);
    }
  }
}

function to8(v: number): number {
  const q = Math.trunc(v * 255 + 0.5);
  return q < 0 ? 0 : q > 255 ? 255 : q;
}
