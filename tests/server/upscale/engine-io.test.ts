// Image handling and failure paths of the engine: formats, orientation,
// transparency, colour profile, limits, bad parameters, cancellation, progress.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type GraphRunCost, UpscaleEngine, UpscaleError } from '../../../server/upscale/engine.js';
import { models, texturedImage } from './helpers.js';

let engine: UpscaleEngine;
let small: Buffer;

beforeAll(async () => {
  engine = new UpscaleEngine({ modelsDir: await models(), maxInputPixels: 200_000, maxTile: { 2: 32 } });
  small = await texturedImage(24, 20);
}, 300_000);

afterAll(async () => {
  await engine?.close();
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    expect(e).toBeInstanceOf(UpscaleError);
    return (e as UpscaleError).code;
  }
}

describe('UpscaleEngine I/O', () => {
  it('lists the Real-CUGAN models without file suffixes', async () => {
    const list = await engine.listModels();
    expect(list.map((m) => m.name)).toContain('up2x-conservative');
    expect(list.find((m) => m.name === 'up4x-denoise3x')).toEqual({ name: 'up4x-denoise3x', scale: 4, denoise: 'denoise3x' });
    expect(list).toHaveLength(11);
  });

  it('reads JPEG, GIF (first frame) and WebP; writes PNG, JPEG and WebP', async () => {
    const raw = await sharp(small).raw().toBuffer();
    const jpeg = await sharp(raw, { raw: { width: 24, height: 20, channels: 3 } }).jpeg().toBuffer();
    const gif = await sharp(raw, { raw: { width: 24, height: 20, channels: 3 } }).gif().toBuffer();
    const webp = await sharp(raw, { raw: { width: 24, height: 20, channels: 3 } }).webp().toBuffer();
    for (const input of [jpeg, gif, webp]) {
      const r = await engine.upscale(input, { modelName: 'up2x-conservative' });
      expect(r.format).toBe('png');
      expect((await sharp(r.data).metadata()).format).toBe('png');
      expect([r.width, r.height]).toEqual([48, 40]);
    }
    for (const format of ['jpeg', 'webp'] as const) {
      const r = await engine.upscale(small, { modelName: 'up2x-conservative', format });
      expect((await sharp(r.data).metadata()).format).toBe(format);
    }
  });

  it('applies EXIF orientation', async () => {
    const jpeg = await sharp(small).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const r = await engine.upscale(jpeg, { modelName: 'up2x-conservative' });
    expect([r.width, r.height]).toEqual([40, 48]);
  });

  it('keeps transparency (alpha upscaled separately) and the colour profile', async () => {
    const rgba = Buffer.alloc(24 * 20 * 4);
    for (let i = 0; i < 24 * 20; i++) {
      rgba[i * 4] = (i * 7) & 255;
      rgba[i * 4 + 1] = 100;
      rgba[i * 4 + 2] = 200;
      rgba[i * 4 + 3] = i % 24 < 12 ? 0 : 255;
    }
    const png = await sharp(rgba, { raw: { width: 24, height: 20, channels: 4 } }).withIccProfile('p3').png().toBuffer();
    const r = await engine.upscale(png, { modelName: 'up2x-conservative' });
    const meta = await sharp(r.data).metadata();
    expect(meta.hasAlpha).toBe(true);
    expect(meta.icc).toBeDefined();
    const out = await sharp(r.data).raw().toBuffer();
    // Every row: transparent on the left half and opaque on the right, apart from the edge between.
    const wrong: string[] = [];
    for (let y = 0; y < 40; y++)
      for (let x = 0; x < 48; x++) {
        const a = out[(y * 48 + x) * 4 + 3]!;
        if ((x < 22 && a !== 0) || (x > 25 && a !== 255)) wrong.push(`${x},${y}: ${a}`);
      }
    expect(wrong).toEqual([]);
  });

  it('rejects bad input with typed errors', async () => {
    expect(await code(engine.upscale(Buffer.from('definitely not an image'), { modelName: 'up2x-conservative' }))).toBe('unsupported_type');
    const truncated = (await texturedImage(64, 64)).subarray(0, 400);
    expect(await code(engine.upscale(truncated, { modelName: 'up2x-conservative' }))).toBe('corrupt_image');
    const big = await sharp({ create: { width: 500, height: 500, channels: 3, background: '#808080' } }).png().toBuffer();
    expect(await code(engine.upscale(big, { modelName: 'up2x-conservative' }))).toBe('too_many_pixels');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(await code(engine.upscale(svg, { modelName: 'up2x-conservative' }))).toBe('unsupported_type');
    expect(await code(engine.upscale(small, { modelName: 'up5x-magic' }))).toBe('unknown_model');
    expect(await code(engine.upscale(small, { modelName: 'up2x-conservative', tileMode: 9 }))).toBe('invalid_parameter');
    expect(await code(engine.upscale(small, { modelName: 'up2x-conservative', cacheMode: 1.5 }))).toBe('invalid_parameter');
    expect(await code(engine.upscale(small, { modelName: 'up2x-conservative', alpha: Number.NaN }))).toBe('invalid_parameter');
    // the engine still works afterwards
    expect((await engine.upscale(small, { modelName: 'up2x-conservative' })).width).toBe(48);
  });

  it('cancels between tiles and reports progress', async () => {
    const img = await texturedImage(128, 96);
    const seen: number[] = [];
    const r = await engine.upscale(img, { modelName: 'up2x-conservative', onProgress: (f) => seen.push(f) });
    expect(r.tiles).toBeGreaterThan(4);
    expect(seen.length).toBeGreaterThan(r.tiles);
    expect(seen.every((f, i) => i === 0 || f >= seen[i - 1]!)).toBe(true);
    expect(seen[seen.length - 1]).toBe(1);

    const pre = new AbortController();
    pre.abort();
    expect(await code(engine.upscale(img, { modelName: 'up2x-conservative', signal: pre.signal }))).toBe('cancelled');

    const mid = new AbortController();
    let calls = 0;
    const p = engine.upscale(img, {
      modelName: 'up2x-conservative',
      signal: mid.signal,
      onProgress: () => {
        if (++calls === 3) mid.abort();
      },
    });
    expect(await code(p)).toBe('cancelled');
    expect(calls).toBeLessThan(r.tiles * 5);
  });

  it("runs with onnxruntime's threads spinning (its own default) instead of sleeping, to the same pixels", async () => {
    const spinning = new UpscaleEngine({ modelsDir: await models(), maxTile: { 2: 32 }, spinning: true });
    try {
      const a = await engine.upscale(small, { modelName: 'up2x-conservative' });
      const b = await spinning.upscale(small, { modelName: 'up2x-conservative' });
      expect(b.tiles).toBe(a.tiles);
      expect((await sharp(b.data).raw().toBuffer()).equals(await sharp(a.data).raw().toBuffer())).toBe(true);
    } finally {
      await spinning.close();
    }
  });

  it('reports each graph run, by graph, to a benchmark that asks', async () => {
    const runs: GraphRunCost[] = [];
    const counted = new UpscaleEngine({ modelsDir: await models(), maxTile: { 2: 32 }, onRun: (run) => runs.push(run) });
    try {
      // One tile: the one graph, once.
      await counted.upscale(small, { modelName: 'up2x-conservative' });
      expect(runs.map((r) => r.variant)).toEqual(['full']);
      runs.length = 0;
      const img = await texturedImage(64, 48);
      const tiled = await counted.upscale(img, { modelName: 'up2x-conservative' });
      expect(tiled.tiles).toBeGreaterThan(1);
      // Every stage of the staged path runs once per tile, the final one included.
      const byGraph = new Map<string, number>();
      for (const run of runs) byGraph.set(run.variant, (byGraph.get(run.variant) ?? 0) + 1);
      expect(byGraph.size).toBe(5);
      for (const [variant, count] of byGraph) {
        expect(variant).toMatch(/^stage-[0-4]\+f16(\+skips)?$/);
        expect(count).toBe(tiled.tiles);
      }
      for (const run of runs) {
        expect(run.wallMs).toBeGreaterThan(0);
        expect(run.userMs).toBeGreaterThanOrEqual(0);
        expect(run.minorFaults).toBeGreaterThanOrEqual(0);
      }
      runs.length = 0;
      await counted.upscale(img, { modelName: 'up2x-conservative', cacheMode: 3 });
      expect(runs.filter((r) => r.variant === 'shared')).toHaveLength(tiled.tiles);
      expect(runs.filter((r) => r.variant.startsWith('probe-'))).toHaveLength(4 * tiled.tiles);
    } finally {
      await counted.close();
    }
  });

  it('gives the recompute passes, which run the whole network on each tile, smaller tiles than the staged path under the same budget', async () => {
    // 320x240 at 2x in 760 MiB: too large to run in one piece (about 778 MiB), so the
    // staged path takes the budget's largest tiles and cache_mode 3 the one-graph sides
    const budgeted = new UpscaleEngine({ modelsDir: await models(), memoryBudgetBytes: 760 * 1024 * 1024 });
    try {
      const img = await texturedImage(320, 240);
      const staged = await budgeted.upscale(img, { modelName: 'up2x-no-denoise', cacheMode: 0 });
      const recompute = await budgeted.upscale(img, { modelName: 'up2x-no-denoise', cacheMode: 3 });
      expect([staged.strategy, staged.tiles]).toEqual(['cached', 2]);
      expect([recompute.strategy, recompute.tiles]).toEqual(['recompute', 4]);
    } finally {
      await budgeted.close();
    }
  }, 120_000);
});
