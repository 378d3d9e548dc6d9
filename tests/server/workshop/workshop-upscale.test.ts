// The workshop's enlargement on the built-in engine is our Real-CUGAN engine, not lanczos: a real
// run on the converted model, with an input past the workshop's pixel bound fitted to it first,
// and the job's abort signal stopping it.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkshopUpscale, WORKSHOP_MAX_INPUT_PIXELS, type WorkshopUpscale } from '../../../server/modules/upscale/workshop-upscale.js';
import { DEFAULT_MEMORY_BUDGET } from '../../../server/upscale/engine.js';
import { models, texturedImage } from '../upscale/helpers.js';

let modelsDir: string;
let small: WorkshopUpscale;

beforeAll(async () => {
  modelsDir = await models();
  // A small bound, so the test's image is fitted without costing a megapixel of inference.
  small = createWorkshopUpscale({
    modelsDir,
    threads: 2,
    maxPixels: 4_200_000,
    memoryBudgetBytes: DEFAULT_MEMORY_BUDGET,
    winograd: undefined,
    maxInputPixels: 64 * 48,
  });
}, 300_000);
afterAll(() => small?.close());

describe('workshop upscale', () => {
  it('bounds the input by default to about a megapixel', () => {
    expect(WORKSHOP_MAX_INPUT_PIXELS).toBeLessThanOrEqual(1_048_576);
  });

  it('enlarges 2x with Real-CUGAN and says so; an input past the bound is fitted to it first', async () => {
    const within = await small.upscale(await texturedImage(48, 40), new AbortController().signal);
    expect(within.model).toBe('Real-CUGAN up2x-conservative ×2 (48×40 → 96×80)');
    const meta = await sharp(within.data).metadata();
    expect([meta.width, meta.height]).toEqual([96, 80]);

    const past = await small.upscale(await texturedImage(96, 72), new AbortController().signal);
    // 96×72 = 6912 px > 3072: fitted to 64×48, then 2x.
    expect(past.model).toBe('Real-CUGAN up2x-conservative ×2 (64×48 → 128×96)');
  }, 120_000);

  it('runs within the abort signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(small.upscale(await texturedImage(48, 40), controller.signal)).rejects.toThrow();
    const late = new AbortController();
    const running = small.upscale(await texturedImage(64, 48), late.signal);
    late.abort();
    await expect(running).rejects.toThrow();
  }, 120_000);
});
