// The candidate pictures the built-in engine composes from the designer's own images with sharp:
// pattern swatches at two scales, repeat layouts (half-drop, mirror), colourways, a palette card,
// the model photo toned to the pattern's palette or beside a swatch panel, and lookbook grids.
// Every function returns raw RGB of exactly the requested size, whatever the size of its input:
// crops are clamped inside the image (a pattern a few pixels across is enlarged, never cut at a
// negative offset), and nothing is scaled up whole before it is cropped.
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import type { ColorShare } from './dominant-colors.js';
import type { ImageFacts } from './image-facts.js';
import { MAX_ASPECT_RATIO } from '../../storage/image-shape.js';
import { coverRegion, coverResize, decodeRaster, decodeRasterCover, type Raster } from './raster.js';
import { adjustTone, type ToneAdjustment } from './tone-adjust.js';
import { transferColors, type LabStats } from './color-transfer.js';
import type { Size } from './canvas-size.js';

const GUTTER_FRACTION = 0.012;
const BACKGROUND = { r: 250, g: 249, b: 246 };

async function toRaster(pipeline: Sharp): Promise<Raster> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

function rawInput(r: Raster): { input: Buffer; raw: { width: number; height: number; channels: 3 } } {
  return { input: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.length), raw: { width: r.width, height: r.height, channels: 3 } };
}

function canvas(size: Size): Sharp {
  return sharp({ create: { width: size.width, height: size.height, channels: 3, background: BACKGROUND } });
}

/** A crop's side: at least 8 px (a close-up of less is a blur), never more than the image has. */
function clampSide(wanted: number, available: number): number {
  return Math.max(1, Math.min(available, Math.max(8, Math.round(wanted))));
}

/** The centred width x height region of an image, inside it (width and height clamped to it). */
function centred(image: Size, width: number, height: number): { left: number; top: number; width: number; height: number } {
  const w = Math.max(1, Math.min(image.width, width));
  const h = Math.max(1, Math.min(image.height, height));
  return { left: Math.floor((image.width - w) / 2), top: Math.floor((image.height - h) / 2), width: w, height: h };
}

/** Longest side of a pattern source used for tiles and close-ups. */
const SOURCE_SIDE = 2048;

/** The pattern upright (EXIF orientation applied), so crops are in the coordinates that were measured. */
async function upright(pattern: Buffer): Promise<{ raster: Raster; view: () => Sharp }> {
  const raster = await decodeRaster(pattern, SOURCE_SIDE);
  return { raster, view: () => sharp(rawInput(raster).input, { raw: rawInput(raster).raw }) };
}

/**
 * One repeat tile of the pattern, `width` wide. When the repeat was measured, the source is first
 * cut to a whole number of repeats, so the tiles join without a seam in the stripes or checks.
 */
export async function patternTile(pattern: Buffer, facts: ImageFacts | undefined, width: number, hue = 0): Promise<Raster> {
  const { raster, view } = await upright(pattern);
  let cropW = raster.width;
  let cropH = raster.height;
  if (facts) {
    const { periodX, periodY, kind, orientation } = facts.pattern;
    const scale = raster.width / facts.width;
    // The largest whole number of repeats that fits.
    const whole = (length: number, period: number | null, use: boolean) => {
      const p = period === null ? 0 : period * scale;
      return use && p >= 2 && p <= length ? Math.max(1, Math.min(length, Math.round(Math.floor(length / p) * p))) : length;
    };
    const acrossX = kind === 'check' || orientation === 'vertical' || orientation === 'diagonal';
    const acrossY = kind === 'check' || orientation === 'horizontal' || orientation === 'diagonal';
    cropW = whole(raster.width, periodX, acrossX);
    cropH = whole(raster.height, periodY, acrossY);
  }
  // At most MAX_ASPECT_RATIO times as tall as wide: scaled to the tile's width, a sliver of a
  // pattern would otherwise grow in height by the whole enlargement.
  cropH = Math.min(cropH, cropW * MAX_ASPECT_RATIO);
  let image = view();
  if (cropW < raster.width || cropH < raster.height) image = image.extract({ left: 0, top: 0, width: cropW, height: cropH });
  image = image.resize({ width: Math.max(8, Math.round(width)) });
  if (hue) image = image.modulate({ hue });
  return toRaster(image);
}

/** Fills a canvas with a tile, repeated from the top-left corner. */
async function tiled(tile: Raster, size: Size): Promise<Raster> {
  // A tile larger than the canvas is cut to it (sharp composites only smaller images).
  let t = tile;
  if (t.width > size.width || t.height > size.height) {
    t = await toRaster(
      sharp(rawInput(t).input, { raw: rawInput(t).raw }).extract({
        left: 0,
        top: 0,
        width: Math.min(t.width, size.width),
        height: Math.min(t.height, size.height),
      }),
    );
  }
  return toRaster(canvas(size).composite([{ ...rawInput(t), tile: true, gravity: 'northwest' }]));
}

/** The pattern repeated at garment scale: three tiles across. */
export async function swatchTiled(pattern: Buffer, facts: ImageFacts | undefined, size: Size, hue = 0): Promise<Raster> {
  return tiled(await patternTile(pattern, facts, size.width / 3, hue), size);
}

/** The middle of the pattern, enlarged: the print or weave at close range. */
export async function swatchCloseUp(pattern: Buffer, size: Size, zoom = 1.6): Promise<Raster> {
  const { raster, view } = await upright(pattern);
  // The middle 1/zoom of the pattern (at least 8 px, at most all of it), cut at once to the
  // frame's shape and only then enlarged.
  const zoomed = { width: clampSide(raster.width / zoom, raster.width), height: clampSide(raster.height / zoom, raster.height) };
  const region = coverRegion(zoomed, size.width, size.height);
  const middle = await toRaster(view().extract(centred(raster, region.width, region.height)));
  return toRaster(sharp(rawInput(middle).input, { raw: rawInput(middle).raw }).resize(size.width, size.height, { fit: 'fill' }));
}

/** Half-drop repeat: every other column of tiles dropped by half a tile. */
export async function halfDrop(pattern: Buffer, facts: ImageFacts | undefined, size: Size): Promise<Raster> {
  const tile = await patternTile(pattern, facts, size.width / 4);
  // A tile one pixel tall has no half to drop.
  if (tile.height < 2) return tiled(tile, size);
  const half = Math.floor(tile.height / 2);
  const source = () => sharp(rawInput(tile).input, { raw: rawInput(tile).raw });
  const top = await toRaster(source().extract({ left: 0, top: 0, width: tile.width, height: half }));
  const bottom = await toRaster(source().extract({ left: 0, top: half, width: tile.width, height: tile.height - half }));
  const block = await toRaster(
    sharp({ create: { width: tile.width * 2, height: tile.height, channels: 3, background: BACKGROUND } }).composite([
      { ...rawInput(tile), left: 0, top: 0 },
      { ...rawInput(bottom), left: tile.width, top: 0 },
      { ...rawInput(top), left: tile.width, top: tile.height - half },
    ]),
  );
  return tiled(block, size);
}

/** Mirror repeat: the tile, its mirror image, and both flipped, as a 2 x 2 block. */
export async function mirrorRepeat(pattern: Buffer, facts: ImageFacts | undefined, size: Size): Promise<Raster> {
  const tile = await patternTile(pattern, facts, size.width / 4);
  const view = () => sharp(rawInput(tile).input, { raw: rawInput(tile).raw });
  const [flopped, flipped, both] = await Promise.all([
    toRaster(view().flop()),
    toRaster(view().flip()),
    toRaster(view().flip().flop()),
  ]);
  const block = await toRaster(
    sharp({ create: { width: tile.width * 2, height: tile.height * 2, channels: 3, background: BACKGROUND } }).composite([
      { ...rawInput(tile), left: 0, top: 0 },
      { ...rawInput(flopped), left: tile.width, top: 0 },
      { ...rawInput(flipped), left: 0, top: tile.height },
      { ...rawInput(both), left: tile.width, top: tile.height },
    ]),
  );
  return tiled(block, size);
}

/** Colour chips in proportion to each colour's share, as an SVG of plain rectangles (no fonts). */
export function paletteStripSvg(colors: readonly ColorShare[], size: Size, gap: number): Buffer {
  const total = colors.reduce((s, c) => s + c.share, 0) || 1;
  const usable = size.width - gap * Math.max(0, colors.length - 1);
  let x = 0;
  const rects = colors.map((c, i) => {
    const w = i === colors.length - 1 ? size.width - x : Math.max(6, Math.round((usable * c.share) / total));
    const rect = `<rect x="${x}" y="0" width="${Math.max(1, w)}" height="${size.height}" fill="${c.hex}"/>`;
    x += w + gap;
    return rect;
  });
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">${rects.join('')}</svg>`,
  );
}

/** The pattern with its measured palette beneath it. */
export async function paletteCard(pattern: Buffer, colors: readonly ColorShare[], size: Size): Promise<Raster> {
  const gutter = Math.max(4, Math.round(Math.min(size.width, size.height) * GUTTER_FRACTION * 2));
  const stripHeight = Math.round(size.height * 0.16);
  const swatchSize = { width: size.width - 2 * gutter, height: size.height - stripHeight - 3 * gutter };
  const swatch = await swatchCloseUp(pattern, swatchSize, 1.2);
  const layers: OverlayOptions[] = [{ ...rawInput(swatch), left: gutter, top: gutter }];
  if (colors.length) {
    layers.push({
      input: paletteStripSvg(colors, { width: swatchSize.width, height: stripHeight }, Math.max(2, gutter / 2)),
      left: gutter,
      top: swatchSize.height + 2 * gutter,
    });
  }
  return toRaster(canvas(size).composite(layers));
}

/** The model photo wearing the pattern's colours (Reinhard transfer), framed to the canvas. */
export async function modelToned(model: Buffer, patternStats: LabStats, size: Size): Promise<Raster> {
  return transferColors(await decodeRasterCover(model, size.width, size.height), patternStats, { lightness: 0.2, color: 0.75 });
}

/** The model photo with a tone change (warmer, cooler, high-key, muted...). */
export async function modelAdjusted(model: Buffer, size: Size, adjustment: ToneAdjustment): Promise<Raster> {
  return adjustTone(await decodeRasterCover(model, size.width, size.height), adjustment);
}

/** The model photo beside a panel: the pattern tiled at scale and its palette. */
export async function modelWithPanel(
  model: Buffer,
  pattern: Buffer,
  facts: ImageFacts | undefined,
  colors: readonly ColorShare[],
  size: Size,
): Promise<Raster> {
  const gutter = Math.max(4, Math.round(Math.min(size.width, size.height) * GUTTER_FRACTION * 2));
  const modelWidth = Math.round(size.width * 0.62);
  const panelWidth = size.width - modelWidth - 2 * gutter;
  const swatchHeight = Math.round((size.height - 3 * gutter) * 0.78);
  const stripHeight = size.height - swatchHeight - 3 * gutter;
  const photo = await decodeRasterCover(model, modelWidth, size.height);
  const swatch = await tiled(await patternTile(pattern, facts, panelWidth / 2), { width: panelWidth, height: swatchHeight });
  const layers: OverlayOptions[] = [
    { ...rawInput(photo), left: 0, top: 0 },
    { ...rawInput(swatch), left: modelWidth + gutter, top: gutter },
  ];
  if (colors.length && stripHeight > 4) {
    layers.push({
      input: paletteStripSvg(colors, { width: panelWidth, height: stripHeight }, Math.max(2, gutter / 2)),
      left: modelWidth + gutter,
      top: swatchHeight + 2 * gutter,
    });
  }
  return toRaster(canvas(size).composite(layers));
}

/** Up to four pictures in a grid (2 x 2, or side by side for two or three), each framed to its cell. */
export async function grid(cells: readonly Raster[], size: Size): Promise<Raster> {
  const gutter = Math.max(4, Math.round(Math.min(size.width, size.height) * GUTTER_FRACTION));
  const count = Math.min(4, cells.length);
  const columns = count === 4 ? 2 : count;
  const rows = count === 4 ? 2 : 1;
  const cellW = Math.floor((size.width - gutter * (columns + 1)) / columns);
  const cellH = Math.floor((size.height - gutter * (rows + 1)) / rows);
  const layers: OverlayOptions[] = [];
  for (let i = 0; i < count; i++) {
    const cell = cells[i] as Raster;
    const framed = await coverResize(() => sharp(rawInput(cell).input, { raw: rawInput(cell).raw }), cell, cellW, cellH);
    layers.push({
      ...rawInput(framed),
      left: gutter + (i % columns) * (cellW + gutter),
      top: gutter + Math.floor(i / columns) * (cellH + gutter),
    });
  }
  return toRaster(canvas(size).composite(layers));
}

/**
 * A closer crop (zoom > 1) framed back to the same size; focusY places it vertically (0 = top,
 * 0.5 = centre), e.g. 0.3 for the upper body of a model photo.
 */
export async function closerCrop(image: Raster, zoom: number, focusY = 0.5): Promise<Raster> {
  const w = clampSide(image.width / zoom, image.width);
  const h = clampSide(image.height / zoom, image.height);
  const top = Math.round(Math.max(0, Math.min(image.height - h, focusY * image.height - h / 2)));
  const small = await toRaster(
    sharp(rawInput(image).input, { raw: rawInput(image).raw }).extract({ left: centred(image, w, h).left, top, width: w, height: h }),
  );
  return toRaster(sharp(rawInput(small).input, { raw: rawInput(small).raw }).resize(image.width, image.height, { kernel: 'lanczos3' }));
}

/** Hue rotation of a raster (a colourway of a finished picture). */
export async function rotateHue(image: Raster, degrees: number): Promise<Raster> {
  return toRaster(sharp(rawInput(image).input, { raw: rawInput(image).raw }).modulate({ hue: degrees }));
}

export async function encodeJpeg(image: Raster): Promise<Buffer> {
  return sharp(rawInput(image).input, { raw: rawInput(image).raw }).jpeg({ quality: 88, mozjpeg: true }).toBuffer();
}
