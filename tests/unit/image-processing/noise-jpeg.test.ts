// @vitest-environment node
// Real JPEG encodes (libjpeg through sharp) rather than simulated blocks: the suggestion must
// follow the quality the way a designer would expect.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { estimateNoise } from '../../../src/lib/noise/noise-estimate';

const W = 384;
const H = 288;

/** A woven-fabric-like texture with a soft gradient. */
function fabric(): Buffer {
  const raw = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y += 1) {
    for (let x = 0; x < W; x += 1) {
      const v = 110 + 25 * Math.sin(x / 3.1) * Math.sin(y / 2.7) + 30 * Math.sin(x / 40 + y / 55) + x * 0.15;
      const i = (y * W + x) * 3;
      raw[i] = Math.max(0, Math.min(255, v + 30));
      raw[i + 1] = Math.max(0, Math.min(255, v));
      raw[i + 2] = Math.max(0, Math.min(255, v - 20));
    }
  }
  return raw;
}

async function estimate(encoded: Buffer) {
  const { data, info } = await sharp(encoded).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return estimateNoise({ width: info.width, height: info.height, data });
}

describe('noise estimate on real encodes', () => {
  const source = () => sharp(fabric(), { raw: { width: W, height: H, channels: 3 } });

  it('suggests conservative for a PNG and a quality-95 JPEG', async () => {
    expect((await estimate(await source().png().toBuffer())).level).toBe('conservative');
    expect((await estimate(await source().jpeg({ quality: 95 }).toBuffer())).level).toBe('conservative');
  });

  it('suggests denoise3x for a heavily compressed JPEG', async () => {
    const result = await estimate(await source().jpeg({ quality: 10 }).toBuffer());
    expect(result.level).toBe('denoise3x');
    expect(result.reason).toBe('heavyJpeg');
  });

  it('suggests a light or medium level for an everyday JPEG', async () => {
    expect(['denoise1x', 'denoise2x']).toContain(
      (await estimate(await source().jpeg({ quality: 60 }).toBuffer())).level,
    );
  });

  it('grows with the compression', async () => {
    const values: number[] = [];
    for (const quality of [90, 50, 10])
      values.push((await estimate(await source().jpeg({ quality }).toBuffer())).blockiness);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });
});
