// Made-up test images with known colours and structure, encoded with sharp like uploads would be.
import sharp from 'sharp';

export type Rgb = [number, number, number];
export const RED: Rgb = [255, 0, 0];
export const WHITE: Rgb = [255, 255, 255];
export const NAVY: Rgb = [28, 40, 72];
export const BLUE: Rgb = [36, 87, 197];
export const BEIGE: Rgb = [217, 196, 163];

/** Raw RGB from a per-pixel colour function. */
export function paint(width: number, height: number, colorAt: (x: number, y: number) => Rgb): Buffer {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colorAt(x, y);
      const o = (y * width + x) * 3;
      data[o] = r;
      data[o + 1] = g;
      data[o + 2] = b;
    }
  }
  return data;
}

export async function png(width: number, height: number, colorAt: (x: number, y: number) => Rgb): Promise<Buffer> {
  return sharp(paint(width, height, colorAt), { raw: { width, height, channels: 3 } }).png().toBuffer();
}

export async function jpeg(width: number, height: number, colorAt: (x: number, y: number) => Rgb): Promise<Buffer> {
  return sharp(paint(width, height, colorAt), { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

export const verticalStripes = (period: number, a: Rgb, b: Rgb) => (x: number) => (x % period < period / 2 ? a : b);
export const horizontalStripes = (period: number, a: Rgb, b: Rgb) => (_x: number, y: number) =>
  y % period < period / 2 ? a : b;
/** Stripes running up to the right ("/"), period measured along a row. */
export const diagonalStripes = (period: number, a: Rgb, b: Rgb) => (x: number, y: number) =>
  (x + y) % period < period / 2 ? a : b;
export const checkerboard = (period: number, a: Rgb, b: Rgb) => (x: number, y: number) =>
  (Math.floor((2 * x) / period) + Math.floor((2 * y) / period)) % 2 === 0 ? a : b;
/** Gingham: two colours crossing, the overlap darker. */
export const gingham = (period: number) => (x: number, y: number): Rgb => {
  const vx = x % period < period / 2;
  const vy = y % period < period / 2;
  return vx && vy ? [40, 60, 150] : vx || vy ? [140, 160, 220] : [255, 255, 255];
};
export const solid = (c: Rgb) => () => c;

/** Deterministic value noise: an irregular print with no repeat. */
export function blotches(seed: number, cell: number, a: Rgb, b: Rgb): (x: number, y: number) => Rgb {
  const hash = (i: number, j: number) => {
    let h = (i * 374761393 + j * 668265263 + seed * 2246822519) | 0;
    h = Math.imul(h ^ (h >>> 13), 1274126177);
    return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  };
  return (x, y) => {
    const fx = x / cell;
    const fy = y / cell;
    const i = Math.floor(fx);
    const j = Math.floor(fy);
    const tx = fx - i;
    const ty = fy - j;
    const v =
      hash(i, j) * (1 - tx) * (1 - ty) + hash(i + 1, j) * tx * (1 - ty) + hash(i, j + 1) * (1 - tx) * ty + hash(i + 1, j + 1) * tx * ty;
    return v > 0.5 ? a : b;
  };
}

/** A stand-in model photo: a light backdrop, a figure-like dark shape, a skin-tone head. */
export const modelPhoto = (width: number, height: number) => (x: number, y: number): Rgb => {
  const cx = width / 2;
  const head = Math.hypot(x - cx, y - height * 0.2) < width * 0.1;
  const body = Math.abs(x - cx) < width * (0.12 + (0.1 * y) / height) && y > height * 0.3;
  if (head) return [224, 180, 150];
  if (body) return [60, 70, 80];
  return [236 - Math.round((20 * y) / height), 232 - Math.round((20 * y) / height), 225];
};
