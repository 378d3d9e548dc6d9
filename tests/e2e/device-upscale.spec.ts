// On-device upscaling: the built upscale-local worker runs the server's own graphs with
// onnxruntime-web (WebAssembly in headless Chromium) and must match the server's output within
// 1/255 — untiled, and tiled with the SE means shared across tiles.
import { expect, test } from '@playwright/test';
import { startServer, type RunningServer } from './server-process';
import { makePng } from './image-processing-helpers';
import { apiToken, deviceUpscale, localWorkerAsset, pixelDiff, serverUpscale } from './device-upscale-helpers';

const PORT = Number(process.env.E2E_DEVICE_PORT ?? 8181);
const STATIC_DIR = process.env.E2E_STATIC_DIR ?? 'dist';
let server: RunningServer;
let token: string;

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  server = await startServer(PORT, { STATIC_DIR });
  token = await apiToken(server.url);
});

test.afterAll(async () => {
  await server?.stop();
});

const cases = [
  { name: 'untiled 32×32 at 2x', model: 'up2x-conservative', w: 32, h: 32, maxTile: undefined, tiles: 1 },
  { name: 'four tiles of a 64×48 image at 2x, SE means shared', model: 'up2x-conservative', w: 64, h: 48, maxTile: 32, tiles: 4 },
  { name: 'two tiles of a 40×24 image at 4x (residual added)', model: 'up4x-conservative', w: 40, h: 24, maxTile: 24, tiles: 2 },
];

for (const c of cases) {
  test(`the wasm path matches the server: ${c.name}`, async ({ page }) => {
    const png = makePng(c.w, c.h, 7);
    const fromServer = await serverUpscale(server.url, token, png, c.model);
    await page.goto(`${server.url}/config.json`);
    const onDevice = await deviceUpscale(page, localWorkerAsset(STATIC_DIR), token, png, c.model, c.maxTile);
    expect(onDevice.stats.backend).toBe('wasm');
    expect(onDevice.stats.tiles).toBe(c.tiles);
    const diff = await pixelDiff(fromServer.png, onDevice.png);
    console.log(`${c.name}: max ${diff.max}, mean ${diff.mean.toFixed(4)} (${diff.width}x${diff.height})`);
    expect(diff.max).toBeLessThanOrEqual(1);
  });
}
