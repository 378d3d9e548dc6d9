// On-device upscaling: the built upscale-local worker runs the server's own graphs with
// onnxruntime-web (WebAssembly in headless Chromium) and must match the server's output within
// 1/255 — untiled, and tiled with the SE means shared across tiles.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { makePng } from './image-processing-helpers';
import { deviceSuiteServer, localWorkerAsset, pixelDiff } from './device-upscale-helpers';

const PORT = Number(process.env.E2E_DEVICE_PORT ?? 8181);
const STATIC_DIR = process.env.E2E_STATIC_DIR ?? 'dist';

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const suite = deviceSuiteServer(PORT, STATIC_DIR);

// cacheBudgetBytes 0 forces the recompute strategy (what a small tablet does with a large image).
const cases = [
  {
    name: 'untiled 32×32 at 2x',
    model: 'up2x-conservative',
    w: 32,
    h: 32,
    opts: {},
    tiles: 1,
    strategy: 'single',
  },
  {
    name: 'four tiles of a 64×48 image at 2x, SE features cached',
    model: 'up2x-conservative',
    w: 64,
    h: 48,
    opts: { maxTile: 32 },
    tiles: 4,
    strategy: 'cached',
  },
  {
    name: 'four tiles of a 64×48 image at 2x, SE means recomputed',
    model: 'up2x-conservative',
    w: 64,
    h: 48,
    opts: { maxTile: 32, cacheBudgetBytes: 0 },
    tiles: 4,
    strategy: 'recompute',
  },
  {
    name: 'two tiles of a 40×24 image at 4x (residual added), cached',
    model: 'up4x-conservative',
    w: 40,
    h: 24,
    opts: { maxTile: 24 },
    tiles: 2,
    strategy: 'cached',
  },
  {
    name: 'two tiles of a 40×24 image at 4x (residual added), recomputed',
    model: 'up4x-conservative',
    w: 40,
    h: 24,
    opts: { maxTile: 24, cacheBudgetBytes: 0 },
    tiles: 2,
    strategy: 'recompute',
  },
];

for (const c of cases) {
  test(`the wasm path matches the server: ${c.name}`, async ({ page }) => {
    const png = makePng(c.w, c.h, 7);
    const { fromServer, onDevice } = await suite.both(page, png, c.model, c.opts);
    expect(onDevice.stats.backend).toBe('wasm');
    // The server's COOP and COEP make the page cross-origin isolated, so the wasm path has threads.
    const { isolated, cores } = await page.evaluate(() => ({
      isolated: self.crossOriginIsolated,
      cores: navigator.hardwareConcurrency,
    }));
    expect(isolated).toBe(true);
    expect(onDevice.stats.threads).toBe(Math.max(1, Math.min(4, cores)));
    expect(onDevice.stats.tiles).toBe(c.tiles);
    expect(onDevice.stats.strategy).toBe(c.strategy);
    const diff = await pixelDiff(fromServer, onDevice.png);
    console.log(`${c.name}: max ${diff.max}, mean ${diff.mean.toFixed(4)} (${diff.width}x${diff.height})`);
    expect(diff.max).toBeLessThanOrEqual(1);
  });
}

// Close to the server, not within 1/255: the canvas that decodes in the browser stores colours
// premultiplied, so the colour under transparent pixels is lost, and it reaches the visible
// picture through the SE blocks' means over the whole image; the alpha plane is smoothed by the
// canvas where the server uses a cubic kernel. The figures are printed.
test('transparency is kept: the alpha plane is scaled beside the picture, close to the server', async ({
  page,
}) => {
  // Opaque on the left half, half transparent in the right quarter, fully transparent between.
  const w = 48;
  const h = 32;
  const { data } = await sharp(makePng(w, h, 5))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) data[(y * w + x) * 4 + 3] = x < w / 2 ? 255 : x < (3 * w) / 4 ? 0 : 128;
  const png = await sharp(data, { raw: { width: w, height: h, channels: 4 } })
    .png()
    .toBuffer();
  const { fromServer, onDevice } = await suite.both(page, png, 'up2x-conservative');
  const a = await sharp(fromServer).raw().toBuffer({ resolveWithObject: true });
  const b = await sharp(onDevice.png).raw().toBuffer({ resolveWithObject: true });
  expect(a.info.channels).toBe(4);
  expect(b.info.channels).toBe(4);
  expect([b.info.width, b.info.height]).toEqual([a.info.width, a.info.height]);
  let alphaMax = 0;
  let alphaSum = 0;
  let rgbMax = 0;
  let rgbSum = 0;
  let rgbCount = 0;
  const W = a.info.width;
  for (let y = 0; y < a.info.height; y++)
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 4;
      const d = Math.abs(a.data[i + 3]! - b.data[i + 3]!);
      alphaMax = Math.max(alphaMax, d);
      alphaSum += d;
      // The picture where the input is opaque, away from the edge the network sees across.
      if (x < W / 2 - 16)
        for (let c = 0; c < 3; c++) {
          const e = Math.abs(a.data[i + c]! - b.data[i + c]!);
          rgbMax = Math.max(rgbMax, e);
          rgbSum += e;
          rgbCount++;
        }
    }
  const alphaMean = alphaSum / (W * a.info.height);
  const rgbMean = rgbSum / rgbCount;
  console.log(
    `alpha: max ${alphaMax}, mean ${alphaMean.toFixed(3)}; opaque picture: max ${rgbMax}, mean ${rgbMean.toFixed(3)}`,
  );
  expect(alphaMean).toBeLessThan(3);
  expect(rgbMean).toBeLessThan(3);
  // Opaque stays opaque and transparent stays transparent away from the edges.
  expect(b.data[(10 * W + 4) * 4 + 3]).toBe(255);
  expect(b.data[(10 * W + Math.round(W * 0.62)) * 4 + 3]).toBe(0);
});

test('a cancel stops the job between tiles', async ({ page }) => {
  await page.goto(`${suite.url}/config.json`);
  const png = makePng(128, 128, 3);
  const reply = await page.evaluate(
    async ({ workerUrl, token, bytes }) => {
      const worker = new Worker(workerUrl, { type: 'module' });
      try {
        return await new Promise<{ type: string; code?: string; progress: number[] }>((resolve) => {
          const progress: number[] = [];
          worker.onmessage = (e: MessageEvent) => {
            const m = e.data as { type: string; code?: string; fraction?: number };
            if (m.type === 'progress') {
              progress.push(m.fraction!);
              // After the first tile: the rest must not run.
              if (progress.length === 1) worker.postMessage({ type: 'cancel', id: 'c' });
              return;
            }
            resolve({ type: m.type, ...(m.code ? { code: m.code } : {}), progress });
          };
          worker.postMessage({
            type: 'run',
            id: 'c',
            image: new Blob([new Uint8Array(bytes)], { type: 'image/png' }),
            modelName: 'up2x-conservative',
            apiBase: '/upscale-api',
            token,
            maxTile: 32,
          });
        });
      } finally {
        worker.terminate();
      }
    },
    { workerUrl: localWorkerAsset(STATIC_DIR), token: suite.token, bytes: Array.from(png) },
  );
  expect(reply).toMatchObject({ type: 'error', code: 'cancelled' });
  // 16 tiles × 5 passes = 80 steps. The worker checks between tiles; with threads a tile of this
  // size takes milliseconds, so a few more may finish while the page reacts to the first progress
  // and its cancel travels back (on a loaded machine, a handful).
  expect(reply.progress.length).toBeLessThanOrEqual(10);
});
