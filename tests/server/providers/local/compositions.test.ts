// The built-in engine's compositions on images of any size, called directly (past the upload rule
// that refuses slivers): a pattern or model photo a few pixels across, or one pixel thin, gives a
// picture of exactly the asked size instead of a negative or out-of-bounds crop; and a frame larger
// than the image is cropped at the image's size before it is enlarged.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createLocalImageGenerator } from '../../../../server/providers/local/image-generator.js';
import {
  closerCrop,
  grid,
  halfDrop,
  mirrorRepeat,
  modelAdjusted,
  modelToned,
  modelWithPanel,
  paletteCard,
  swatchCloseUp,
  swatchTiled,
} from '../../../../server/providers/local/compositions.js';
import { measureImage } from '../../../../server/providers/local/image-facts.js';
import { coverRegion, decodeRasterCover, type Raster } from '../../../../server/providers/local/raster.js';
import { BLUE, RED, WHITE, png, verticalStripes } from './test-images.js';

const SIZE = { width: 96, height: 128 };
const TINY: [number, number][] = [
  [1, 1],
  [4, 4],
  [1, 64],
  [64, 1],
  [2, 3],
  [7, 300],
];
const STATS = { mean: [50, 10, 10] as [number, number, number], std: [20, 5, 5] as [number, number, number] };
const PALETTE = [
  { hex: '#ff0000', rgb: RED, lab: [53.2, 80.1, 67.2] as [number, number, number], share: 0.6 },
  { hex: '#ffffff', rgb: WHITE, lab: [100, 0, 0] as [number, number, number], share: 0.4 },
];

function expectRaster(r: Raster, size = SIZE): void {
  expect([r.width, r.height]).toEqual([size.width, size.height]);
  expect(r.data.length).toBe(size.width * size.height * 3);
}

describe('compositions on tiny and thin images', () => {
  for (const [w, h] of TINY) {
    it(`compose a ${w}x${h} pattern and model photo into pictures of the asked size`, async () => {
      const pattern = await png(w, h, verticalStripes(2, RED, WHITE));
      const model = await png(w, h, () => BLUE);
      const facts = await measureImage(pattern).catch(() => undefined);
      for (const f of [undefined, facts]) {
        expectRaster(await swatchTiled(pattern, f, SIZE));
        expectRaster(await swatchTiled(pattern, f, SIZE, 120));
        expectRaster(await halfDrop(pattern, f, SIZE));
        expectRaster(await mirrorRepeat(pattern, f, SIZE));
        expectRaster(await modelWithPanel(model, pattern, f, PALETTE, SIZE));
      }
      const close = await swatchCloseUp(pattern, SIZE);
      expectRaster(close);
      expectRaster(await swatchCloseUp(pattern, SIZE, 1.2));
      expectRaster(await paletteCard(pattern, PALETTE, SIZE));
      expectRaster(await modelToned(model, STATS, SIZE));
      const adjusted = await modelAdjusted(model, SIZE, { warmth: 0.5 });
      expectRaster(adjusted);
      const tinyRaster: Raster = { width: w, height: h, data: new Uint8Array(w * h * 3).fill(200) };
      expectRaster(await closerCrop(tinyRaster, 1.4, 0.35), { width: w, height: h });
      expectRaster(await grid([tinyRaster, adjusted, close, tinyRaster], SIZE));
      // The close-up of a red-and-white pattern is red and white, not the background.
      const stats = await sharp(Buffer.from(close.data), { raw: { ...SIZE, channels: 3 } }).stats();
      expect(stats.channels[0]!.mean).toBeGreaterThan(200);
    });
  }

  it('makes six candidates from a 1x1 pattern and a 4x4 model photo through the whole engine', async () => {
    const generator = createLocalImageGenerator();
    const result = await generator.generateImages(
      {
        prompt: '',
        sources: [
          { data: await png(4, 4, () => BLUE), mimeType: 'image/png', role: 'model' },
          { data: await png(1, 1, () => RED), mimeType: 'image/png', role: 'pattern' },
        ],
        count: 6,
        aspect: 'vertical',
        language: 'en-US',
        signal: new AbortController().signal,
      },
      () => {},
    );
    expect(result.images).toHaveLength(6);
    for (const image of result.images) expect([image.width, image.height]).toEqual([576, 768]);
  });
});

describe('cover framing', () => {
  it('keeps the largest region of the frame shape, inside the image, never empty', () => {
    expect(coverRegion({ width: 1, height: 40_000 }, 384, 384)).toEqual({ width: 1, height: 1 });
    expect(coverRegion({ width: 40_000, height: 1 }, 384, 512)).toEqual({ width: 1, height: 1 });
    expect(coverRegion({ width: 8, height: 256 }, 768, 768)).toEqual({ width: 8, height: 8 });
    expect(coverRegion({ width: 100, height: 50 }, 400, 400)).toEqual({ width: 50, height: 50 });
    expect(coverRegion({ width: 100, height: 50 }, 90, 10)).toEqual({ width: 100, height: 11 });
    expect(coverRegion({ width: 3, height: 3 }, 768, 576)).toEqual({ width: 3, height: 2 });
  });

  it('frames a thin photo to a larger canvas at exactly its size, with the photo\'s colour', async () => {
    // 1x4000: sharp's cover resize alone would first make it 768x3,072,000 (7 GB of RGB).
    const thin = await sharp({ create: { width: 1, height: 4000, channels: 3, background: '#2457c5' } }).png().toBuffer();
    const framed = await decodeRasterCover(thin, 768, 768);
    expectRaster(framed, { width: 768, height: 768 });
    expect([framed.data[0], framed.data[1], framed.data[2]]).toEqual([0x24, 0x57, 0xc5]);
    const wide = await decodeRasterCover(await png(300, 7, () => RED), 96, 128);
    expectRaster(wide);
  });
});
