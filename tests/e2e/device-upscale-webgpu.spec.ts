// On-device upscaling on WebGPU: with --enable-unsafe-webgpu, headless Chromium offers SwiftShader's
// adapter (a GPU emulated on the CPU), so the worker's WebGPU build runs its real kernels here,
// slowly (seconds for a thousand pixels). Its kernels sum in another order than the server's CPU
// kernels; on this adapter the output still matches within 1/255 (the figure is printed), which a
// real tablet GPU's float32 arithmetic may not hold exactly.
import { expect, test } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { makePng } from './image-processing-helpers';
import { deviceSuiteServer, pixelDiff } from './device-upscale-helpers';

const PORT = Number(process.env.E2E_DEVICE_WEBGPU_PORT ?? 8182);
const STATIC_DIR = process.env.E2E_STATIC_DIR ?? 'dist';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...chromiumArgs, '--enable-unsafe-webgpu'],
  },
});
test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

const suite = deviceSuiteServer(PORT, STATIC_DIR);

const cases = [
  { name: 'untiled 32×32 at 2x', w: 32, h: 32, opts: {}, strategy: 'single' },
  {
    name: 'four tiles of a 64×48 image at 2x, SE features cached',
    w: 64,
    h: 48,
    opts: { maxTile: 32 },
    strategy: 'cached',
  },
];

for (const c of cases) {
  test(`the WebGPU path is close to the server: ${c.name}`, async ({ page }) => {
    const png = makePng(c.w, c.h, 7);
    // No backend named: the worker's own choice, which must be WebGPU when an adapter is there.
    const { fromServer, onDevice } = await suite.both(page, png, 'up2x-conservative', {
      ...c.opts,
      backend: undefined,
    });
    expect(onDevice.stats.backend).toBe('webgpu');
    expect(onDevice.stats.strategy).toBe(c.strategy);
    const diff = await pixelDiff(fromServer, onDevice.png);
    console.log(
      `WebGPU, ${c.name}: max ${diff.max}, mean ${diff.mean.toFixed(4)} (${diff.width}x${diff.height})`,
    );
    expect(diff.max).toBeLessThanOrEqual(1);
  });
}

test('without an adapter the worker runs on WebAssembly', async ({ browser }) => {
  // A second Chromium without the flag has no WebGPU: the worker's own choice falls to wasm.
  const png = makePng(16, 16, 3);
  const plain = await browser.browserType().launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    const page = await plain.newPage();
    const run = await suite.device(page, png, 'up2x-conservative', { backend: undefined });
    expect(run.stats.backend).toBe('wasm');
  } finally {
    await plain.close();
  }
});
