// The service's engine runs on a worker thread: the same bytes as the engine on this thread,
// typed errors and cancellation across the thread, and an event loop that keeps turning while
// tiles are computed (onnxruntime-node holds the calling thread for each run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ThreadedEngine } from '../../../server/modules/upscale/threaded-engine.js';
import { UpscaleEngine, UpscaleError } from '../../../server/upscale/engine.js';
import { models, texturedImage } from '../upscale/helpers.js';

let threaded: ThreadedEngine;
let direct: UpscaleEngine;
let image: Buffer;

beforeAll(async () => {
  const modelsDir = await models();
  threaded = new ThreadedEngine({ modelsDir, threads: 2, maxInputPixels: 4_200_000 });
  direct = new UpscaleEngine({ modelsDir, threads: 2 });
  image = await texturedImage(288, 216);
}, 300_000);

afterAll(async () => {
  await threaded?.close();
  await direct?.close();
});

/** The longest the event loop was held while `job` ran, in ms. */
async function longestStall(job: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  await job();
  histogram.disable();
  return histogram.max / 1e6;
}

describe('the engine on its own thread', () => {
  it('lists the models without starting its thread, so the image page does not wait for it', async () => {
    // Thread ids are handed out in order: a probe thread before and after the listing shows
    // whether any other thread started in between.
    const probe = () => {
      const worker = new Worker('', { eval: true });
      void worker.terminate();
      return worker.threadId;
    };
    const fresh = new ThreadedEngine({ modelsDir: await models(), threads: 1, maxInputPixels: 1_000_000 });
    const before = probe();
    expect((await fresh.listModels()).map((m) => m.name)).toContain('up2x-conservative');
    expect(probe()).toBe(before + 1);
    await fresh.close();
  });

  it('without weights on disk, the listing fails as a missing folder (which the service answers with 503 models_unavailable)', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'loom-no-models-'));
    const engine = new ThreadedEngine({ modelsDir: empty, threads: 1, maxInputPixels: 1_000_000 });
    try {
      await expect(engine.listModels()).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await engine.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('lists the models and answers with the same bytes as the engine on this thread', async () => {
    expect((await threaded.listModels()).map((m) => m.name)).toEqual(
      (await direct.listModels()).map((m) => m.name),
    );
    const a = await threaded.upscale(image, { modelName: 'up2x-conservative' });
    const b = await direct.upscale(image, { modelName: 'up2x-conservative' });
    expect({ width: a.width, height: a.height, scale: a.scale, format: a.format }).toEqual({
      width: 576,
      height: 432,
      scale: 2,
      format: 'png',
    });
    expect(Buffer.compare(a.data, b.data)).toBe(0);
  }, 120_000);

  it('keeps the event loop turning while it computes', async () => {
    // Warm both (sessions created), then compare how long each holds this thread.
    const onThisThread = await longestStall(() => direct.upscale(image, { modelName: 'up2x-no-denoise' }));
    const onItsThread = await longestStall(() => threaded.upscale(image, { modelName: 'up2x-no-denoise' }));
    console.log(
      `event loop held at most ${onThisThread.toFixed(0)} ms on this thread, ${onItsThread.toFixed(0)} ms with the engine thread`,
    );
    expect(onItsThread).toBeLessThan(onThisThread / 2);
  }, 120_000);

  it('reports progress, and carries typed errors and cancellation across the thread', async () => {
    const fractions: number[] = [];
    await threaded.upscale(image, { modelName: 'up2x-conservative', onProgress: (f) => fractions.push(f) });
    expect(fractions.length).toBeGreaterThan(0);
    expect(fractions.at(-1)).toBe(1);

    const corrupt = threaded.upscale(Buffer.from('not an image at all'), { modelName: 'up2x-conservative' });
    await expect(corrupt).rejects.toBeInstanceOf(UpscaleError);
    await expect(corrupt).rejects.toMatchObject({
      code: expect.stringMatching(/unsupported_type|corrupt_image/),
    });
    await expect(threaded.upscale(image, { modelName: 'up9x-magic' })).rejects.toMatchObject({
      code: 'unknown_model',
    });

    const controller = new AbortController();
    // Four tiles, so progress comes (and the cancel lands) before the job's end: a job this small
    // otherwise runs untiled, its one report coming with the finished image.
    const job = threaded.upscale(image, {
      modelName: 'up2x-conservative',
      tileMode: 2,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(job).rejects.toMatchObject({ code: 'cancelled' });
    // The thread is still there for the next job.
    expect((await threaded.upscale(image, { modelName: 'up2x-conservative' })).width).toBe(576);
  }, 120_000);

  it('closes while onnxruntime is at work without taking the process down', async () => {
    // Terminating the thread while onnxruntime-node had a call in flight aborted the whole server
    // ("terminate called after throwing an instance of 'Napi::Error'"), e.g. when it stopped
    // during a workshop image.
    const engine = new ThreadedEngine({ modelsDir: await models(), threads: 2, maxInputPixels: 4_200_000 });
    const large = await texturedImage(512, 512);
    let closing: Promise<void> | undefined;
    const job = engine.upscale(large, {
      modelName: 'up2x-conservative',
      // Sent after a unit of work, halfway through: by the time the thread hears it, the next
      // tile's run has begun.
      onProgress: (fraction) => {
        if (fraction >= 0.5) closing ??= engine.close();
      },
    });
    await expect(job).rejects.toMatchObject({ code: 'cancelled' });
    expect(closing).toBeDefined();
    await closing;
  }, 300_000);
});
