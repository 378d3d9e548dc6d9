// Parity with realcugan-ncnn-vulkan's CPU mode (-g -1), untiled and tiled, and
// tiling seams: with shared SE means a tiled run must match the untiled one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { UpscaleEngine } from '../../../server/upscale/engine.js';
import { diff, models, rawRgb, reference, texturedImage } from './helpers.js';

let dir: string;
let untiled: UpscaleEngine;
let tiled: UpscaleEngine;
/** the same two with the wide layers as Winograd F(4,3), as on a CPU without AVX-512 */
let untiledWinograd: UpscaleEngine;
let tiledWinograd: UpscaleEngine;
let image: Buffer;

beforeAll(async () => {
  dir = await models();
  // Tiny tiles force a 2x3 or 3x3 grid on the test image.
  const maxTile = { 2: 28, 3: 32, 4: 28 };
  untiled = new UpscaleEngine({ modelsDir: dir, winograd: false });
  tiled = new UpscaleEngine({ modelsDir: dir, maxTile, winograd: false });
  untiledWinograd = new UpscaleEngine({ modelsDir: dir, winograd: true });
  tiledWinograd = new UpscaleEngine({ modelsDir: dir, maxTile, winograd: true });
  image = await texturedImage(72, 56);
}, 300_000);

afterAll(async () => {
  for (const engine of [untiled, tiled, untiledWinograd, tiledWinograd]) await engine?.close();
});

const cases = [
  { model: 'up2x-conservative', scale: 2, noise: -1 },
  { model: 'up2x-denoise3x', scale: 2, noise: 3 },
  { model: 'up3x-conservative', scale: 3, noise: -1 },
  { model: 'up4x-no-denoise', scale: 4, noise: 0 },
];

describe('parity with the reference CPU implementation', () => {
  for (const c of cases) {
    it(`${c.model}: untiled and tiled within 1/255, with direct and with Winograd convolutions`, async () => {
      const ref = (await rawRgb(await reference(dir, image, c.scale, c.noise))).data;
      // the Winograd engines run graphs of their own, with the wide layers rewritten, but at 4x
      const graphs = await Promise.all(
        [untiled, untiledWinograd].map(async (e) => {
          const m = await e.loadModel(c.model);
          return readFile(path.join(m.dir, m.variants['full']!), 'latin1');
        }),
      );
      expect(graphs[0]).not.toContain('_wg_mm');
      if (c.scale === 4) expect(graphs[1] === graphs[0]).toBe(true);
      else expect(graphs[1]).toContain('_wg_mm');
      for (const [one, many] of [
        [untiled, tiled],
        [untiledWinograd, tiledWinograd],
      ] as const) {
        const a = await one.upscale(image, { modelName: c.model });
        expect(a.strategy).toBe('single');
        expect([a.width, a.height]).toEqual([72 * c.scale, 56 * c.scale]);
        expect(diff((await rawRgb(a.data)).data, ref).max).toBeLessThanOrEqual(1);

        const b = await many.upscale(image, { modelName: c.model, cacheMode: 0 });
        expect(b.strategy).toBe('cached');
        expect(b.tiles).toBeGreaterThan(3);
        expect(diff((await rawRgb(b.data)).data, ref).max).toBeLessThanOrEqual(1);
      }
    });
  }

  it('recompute mode (cache_mode 3) matches the reference too', async () => {
    const ref = (await rawRgb(await reference(dir, image, 2, -1))).data;
    const r = await tiled.upscale(image, { modelName: 'up2x-conservative', cacheMode: 3 });
    expect(r.strategy).toBe('recompute');
    expect(diff((await rawRgb(r.data)).data, ref).max).toBeLessThanOrEqual(1);
  });
});

describe('tiling', () => {
  it('has no seams: tiled equals untiled for every exact cache mode', async () => {
    const img = await texturedImage(96, 80, 7);
    const whole = (await rawRgb((await untiled.upscale(img, { modelName: 'up2x-no-denoise' })).data)).data;
    for (const cacheMode of [0, 3]) {
      const r = await tiled.upscale(img, { modelName: 'up2x-no-denoise', cacheMode });
      expect(r.tiles).toBeGreaterThanOrEqual(9);
      expect(diff((await rawRgb(r.data)).data, whole).max).toBeLessThanOrEqual(1);
    }
    // The uint8 feature cache is close; sampled SE means (cache_mode 2) are an
    // estimate whose error depends on the image, so only its shape is checked.
    const q = await tiled.upscale(img, { modelName: 'up2x-no-denoise', cacheMode: 1 });
    expect(diff((await rawRgb(q.data)).data, whole).mean).toBeLessThan(1);
    const s = await tiled.upscale(img, { modelName: 'up2x-no-denoise', cacheMode: 2 });
    expect(s.strategy).toBe('sampled');
    expect([s.width, s.height]).toEqual([192, 160]);
  });

  it('features spilled to the temporary file give the same result as features kept in memory, job after job over one kept file', async () => {
    const spillDir = mkdtempSync(path.join(tmpdir(), 'loom-parity-spill-'));
    const spilling = new UpscaleEngine({
      modelsDir: dir,
      maxTile: { 2: 28, 4: 28 },
      cacheBudgetBytes: 0,
      smallJobCacheBytes: 0,
      featureCacheDir: spillDir,
    });
    const inRam = new UpscaleEngine({ modelsDir: dir, maxTile: { 2: 28, 4: 28 } });
    try {
      const img = await texturedImage(64, 56, 5);
      // 4x also spills its float16 skip branches
      for (const [modelName, cacheMode] of [
        ['up2x-conservative', 0],
        ['up2x-conservative', 1],
        ['up4x-conservative', 0],
      ] as const) {
        const inMemory = (await rawRgb((await inRam.upscale(img, { modelName, cacheMode })).data)).data;
        const r = await spilling.upscale(img, { modelName, cacheMode });
        expect(r.strategy).toBe('cached');
        expect(diff((await rawRgb(r.data)).data, inMemory).max).toBe(0);
        // Each job wrote over the pages the one before left: one file, kept between jobs.
        expect(readdirSync(spillDir)).toHaveLength(1);
      }
      await spilling.close();
      expect(readdirSync(spillDir)).toEqual([]);
    } finally {
      await spilling.close();
      await inRam.close();
      rmSync(spillDir, { recursive: true, force: true });
    }
  });

  it('a large job streams its features through a direct-I/O file, read ahead of each tile, with the result of features kept in memory', async () => {
    const spillDir = mkdtempSync(path.join(tmpdir(), 'loom-parity-stream-'));
    const large = { modelsDir: dir, maxTile: { 2: 28, 4: 28 }, smallJobFeatureBytes: 0, skipCacheBytes: 0, streamedSkipBytes: 0, cacheBudgetBytes: 0, featureCacheDir: spillDir };
    const direct = new UpscaleEngine(large);
    const buffered = new UpscaleEngine({ ...large, directSpill: false });
    const inRam = new UpscaleEngine({ modelsDir: dir, maxTile: { 2: 28, 4: 28 }, cacheSkips: false });
    try {
      const img = await texturedImage(64, 56, 7);
      for (const modelName of ['up2x-conservative', 'up4x-conservative']) {
        const expected = (await rawRgb((await inRam.upscale(img, { modelName })).data)).data;
        for (const engine of [direct, buffered]) {
          const r = await engine.upscale(img, { modelName });
          expect([r.strategy, r.skipCachedTiles]).toEqual(['cached', 0]);
          expect(r.tiles).toBeGreaterThan(4);
          expect(diff((await rawRgb(r.data)).data, expected).max).toBe(0);
          // a streaming job's file is its own: removed behind the job once it ends
          await expect.poll(() => readdirSync(spillDir)).toEqual([]);
        }
      }
    } finally {
      await Promise.all([direct.close(), buffered.close(), inRam.close()]);
      rmSync(spillDir, { recursive: true, force: true });
    }
  });

  it('a large job past skipCacheBytes streams its skip branches too, written and read in place, with the result of keeping them in memory', async () => {
    const spillDir = mkdtempSync(path.join(tmpdir(), 'loom-parity-stream-skips-'));
    const large = { modelsDir: dir, maxTile: { 2: 28, 3: 32, 4: 28 }, smallJobFeatureBytes: 0, skipCacheBytes: 0, cacheBudgetBytes: 0, featureCacheDir: spillDir };
    const direct = new UpscaleEngine(large);
    const buffered = new UpscaleEngine({ ...large, directSpill: false });
    // a small job keeps the same float16 skip branches in memory
    const inRam = new UpscaleEngine({ modelsDir: dir, maxTile: large.maxTile });
    try {
      const img = await texturedImage(64, 56, 13);
      for (const modelName of ['up2x-conservative', 'up3x-conservative', 'up4x-conservative']) {
        const kept = await inRam.upscale(img, { modelName });
        expect(kept.skipCachedTiles).toBe(kept.tiles);
        const expected = (await rawRgb(kept.data)).data;
        for (const engine of [direct, buffered]) {
          const r = await engine.upscale(img, { modelName });
          expect([r.strategy, r.skipCachedTiles]).toEqual(['cached', r.tiles]);
          expect(diff((await rawRgb(r.data)).data, expected).max).toBe(0);
          await expect.poll(() => readdirSync(spillDir)).toEqual([]);
        }
      }
    } finally {
      await Promise.all([direct.close(), buffered.close(), inRam.close()]);
      rmSync(spillDir, { recursive: true, force: true });
    }
  });

  it('a large job whose spill file can grow no more under its skip branches runs again recomputing them, with the same pixels', async () => {
    const spillDir = mkdtempSync(path.join(tmpdir(), 'loom-parity-disk-full-'));
    // skip branches (about 5 MB) and features both past the 5 MiB of RAM, features alone within it
    const large = { modelsDir: dir, maxTile: { 2: 28 }, smallJobFeatureBytes: 0, skipCacheBytes: 0, cacheBudgetBytes: 5 * 1024 * 1024, featureCacheDir: spillDir };
    const engine = new UpscaleEngine(large);
    const recomputing = new UpscaleEngine({ ...large, streamedSkipBytes: 0 });
    // This process's file size limit (RLIMIT_FSIZE, soft), set to 0 once the job has begun: a
    // write that would grow a file fails with EFBIG, as a full disk's fails with ENOSPC after the
    // job found room (Node ignores SIGXFSZ). The hard limit stays, so the soft one comes back.
    const fileSizeLimit = (limit: string): void => {
      execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${limit}:`]);
    };
    try {
      const img = await texturedImage(64, 56, 17);
      const modelName = 'up2x-conservative';
      const expected = (await rawRgb((await recomputing.upscale(img, { modelName })).data)).data;
      const progress: number[] = [];
      const r = await engine.upscale(img, {
        modelName,
        onProgress: (f) => {
          if (progress.length === 0) fileSizeLimit('0');
          progress.push(f);
        },
      });
      fileSizeLimit('unlimited');
      expect([r.strategy, r.skipCachedTiles]).toEqual(['cached', 0]);
      expect(diff((await rawRgb(r.data)).data, expected).max).toBe(0);
      // the second run went on from the first one's progress
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      await expect.poll(() => readdirSync(spillDir)).toEqual([]);
    } finally {
      fileSizeLimit('unlimited');
      await Promise.all([engine.close(), recomputing.close()]);
      rmSync(spillDir, { recursive: true, force: true });
    }
  });

  it('a streaming job cancelled mid-job with maps read ahead leaves no file, and the next job is exact', async () => {
    const spillDir = mkdtempSync(path.join(tmpdir(), 'loom-parity-stream-cancel-'));
    const engine = new UpscaleEngine({ modelsDir: dir, maxTile: { 2: 28 }, smallJobFeatureBytes: 0, skipCacheBytes: 0, cacheBudgetBytes: 0, featureCacheDir: spillDir });
    // the same float16 skip branches, kept in memory by a small job
    const inRam = new UpscaleEngine({ modelsDir: dir, maxTile: { 2: 28 } });
    try {
      const img = await texturedImage(64, 56, 11);
      const modelName = 'up2x-conservative';
      for (const stopAt of [0.15, 0.5, 0.9]) {
        const abort = new AbortController();
        const job = engine.upscale(img, {
          modelName,
          signal: abort.signal,
          onProgress: (f) => f >= stopAt && abort.abort(),
        });
        await expect(job).rejects.toMatchObject({ code: 'cancelled' });
        await expect.poll(() => readdirSync(spillDir)).toEqual([]);
      }
      const expected = (await rawRgb((await inRam.upscale(img, { modelName })).data)).data;
      const r = await engine.upscale(img, { modelName });
      expect(diff((await rawRgb(r.data)).data, expected).max).toBe(0);
      await expect.poll(() => readdirSync(spillDir)).toEqual([]);
    } finally {
      await Promise.all([engine.close(), inRam.close()]);
      rmSync(spillDir, { recursive: true, force: true });
    }
  });

  it('skip branches cached as float16 (in memory or spilled, small job or large) match recomputing them', async () => {
    const img = await texturedImage(64, 56, 9);
    const maxTile = { 2: 28, 3: 32, 4: 28 };
    const engines = [
      new UpscaleEngine({ modelsDir: dir, maxTile, cacheSkips: false }),
      // a large job (its features over the small-job size) whose skip branches are over skipCacheBytes
      // and streamedSkipBytes
      new UpscaleEngine({ modelsDir: dir, maxTile, smallJobFeatureBytes: 0, skipCacheBytes: 0, streamedSkipBytes: 0 }),
      new UpscaleEngine({ modelsDir: dir, maxTile }),
      new UpscaleEngine({ modelsDir: dir, maxTile, cacheBudgetBytes: 0, smallJobCacheBytes: 0 }),
      // a large job within skipCacheBytes caches them, spilled past the large job's cache RAM
      new UpscaleEngine({ modelsDir: dir, maxTile, smallJobFeatureBytes: 0, cacheBudgetBytes: 0 }),
    ];
    try {
      // up2x's and up3x's final stage recomputes the second U-Net's skip branch from a crop of its
      // input (crop-pushdown.ts), while the stage that takes the cached branch crops the branch itself
      for (const modelName of [
        'up2x-conservative',
        'up3x-conservative',
        'up4x-no-denoise',
        'up4x-conservative',
      ]) {
        const runs = [];
        for (const e of engines) runs.push(await e.upscale(img, { modelName }));
        const [none, large, inRam, spilled, largeCached] = runs.map((r) => r.skipCachedTiles);
        expect(none).toBe(0);
        expect(large).toBe(0);
        expect(inRam).toBe(runs[2]!.tiles);
        expect(spilled).toBe(runs[3]!.tiles);
        expect(largeCached).toBe(runs[4]!.tiles);
        expect(diff((await rawRgb(runs[1]!.data)).data, (await rawRgb(runs[0]!.data)).data).max).toBe(0);
        runs.splice(1, 1);
        const [recomputed, ...cached] = await Promise.all(runs.map(async (r) => (await rawRgb(r.data)).data));
        for (const c of cached) {
          const d = diff(c, recomputed!);
          expect(d.max).toBeLessThanOrEqual(1);
          expect(d.mean).toBeLessThan(0.05);
        }
      }
    } finally {
      await Promise.all(engines.map((e) => e.close()));
    }
  });

  it('a map past the float16 range (a one-pixel checkerboard at 4x) sends the job to float32 features, still exact', async () => {
    const side = 64;
    const checker = await sharp(
      Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => ((Math.floor(i / 3) % side) + Math.floor(i / 3 / side)) % 2 * 255)),
      { raw: { width: side, height: side, channels: 3 } },
    )
      .png()
      .toBuffer();
    const modelName = 'up4x-no-denoise';
    const whole = (await rawRgb((await untiled.upscale(checker, { modelName })).data)).data;
    for (const cacheMode of [0, 1]) {
      const r = await tiled.upscale(checker, { modelName, cacheMode });
      expect(r.strategy).toBe('cached');
      expect(r.tiles).toBeGreaterThanOrEqual(9);
      expect(r.float32Features).toBe(true);
      const d = diff((await rawRgb(r.data)).data, whole);
      if (cacheMode === 0) expect(d.max).toBeLessThanOrEqual(1);
      else expect(d.mean).toBeLessThan(1);
    }
    // a textured picture stays on the float16 stages
    const textured = await tiled.upscale(await texturedImage(64, 64, 5), { modelName });
    expect(textured.float32Features).toBe(false);
  });

  it('alpha = 1 is bit-identical to the default; other values change the result', async () => {
    const img = await texturedImage(40, 40, 3);
    const base = (await rawRgb((await untiled.upscale(img, { modelName: 'up2x-conservative' })).data)).data;
    const one = (
      await rawRgb((await untiled.upscale(img, { modelName: 'up2x-conservative', alpha: 1 })).data)
    ).data;
    expect(diff(one, base).max).toBe(0);
    const soft = (
      await rawRgb((await untiled.upscale(img, { modelName: 'up2x-conservative', alpha: 1.3 })).data)
    ).data;
    expect(diff(soft, base).mean).toBeGreaterThan(0.2);
    // alpha applies in tiled runs as well
    const softTiled = (
      await rawRgb((await tiled.upscale(img, { modelName: 'up2x-conservative', alpha: 1.3 })).data)
    ).data;
    expect(diff(softTiled, soft).max).toBeLessThanOrEqual(1);
  });
});
