// The queue upscales on this device when the server cannot be reached, and goes back to the server
// when it returns; each card says where its result was made. The graphs and onnxruntime's wasm
// come from the service worker's cache once the server is gone (fetched by a first on-device run).
import { expect, test, type Page } from '@playwright/test';
import { startServer, type RunningServer } from './server-process';
import { pngFiles, signIn } from './image-processing-helpers';
import { waitForServiceWorker } from './offline-helpers';

const PORT = Number(process.env.E2E_DEVICE_FALLBACK_PORT ?? 8183);
const STATIC_DIR = process.env.E2E_STATIC_DIR ?? 'dist';
let server: RunningServer;

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

test.beforeAll(async () => {
  server = await startServer(PORT, { STATIC_DIR });
});

test.afterAll(async () => {
  await server?.stop();
});

const cards = (page: Page, status: string) => page.locator(`[data-testid="result-card"][data-status="${status}"]`);
const madeOn = (page: Page, where: 'server' | 'device') =>
  page.locator(`[data-testid="result-card"] [data-testid="item-made-on"][data-made-on="${where}"]`);

async function upscale(page: Page, files: ReturnType<typeof pngFiles>): Promise<void> {
  await page.getByTestId('model-up2x-conservative').click();
  await page.getByTestId('upload-input').setInputFiles(files);
  await expect(page.getByTestId('pending-file')).toHaveCount(files.length);
  await page.getByTestId('start-upscale').click();
}

async function where(page: Page, value: 'auto' | 'device'): Promise<void> {
  const details = page.getByTestId('advanced-options');
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
  await page.getByTestId('upscale-where').selectOption(value);
}

test('falls back to the device while the server is stopped, and back to the server when it returns', async ({
  page,
}) => {
  await signIn(page, server.url);
  await waitForServiceWorker(page);
  // Workers started before the service worker took over are not controlled by it: load again.
  await page.reload();
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();

  // Chosen "on this device": the model's graphs and the wasm are fetched once and cached.
  await where(page, 'device');
  await upscale(page, pngFiles(1, 48, 0));
  await expect(cards(page, 'completed')).toHaveCount(1, { timeout: 120_000 });
  await expect(madeOn(page, 'device')).toHaveCount(1);
  await expect(madeOn(page, 'device').first()).toHaveText('This device');

  // The server stops: the designer keeps the default ("on the server") and starts two more.
  await where(page, 'auto');
  await server.stop();
  await upscale(page, pngFiles(2, 40, 10));
  await expect(page.getByTestId('queue-paused')).toBeVisible({ timeout: 30_000 });
  // Not idle: the toolbar and the shell's indicator say this device works in the service's place.
  await expect(page.locator('[data-testid="queue-paused"][data-on-device="true"]')).toContainText('on this device', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('queue-indicator')).toContainText('on this device');
  await expect(cards(page, 'completed')).toHaveCount(3, { timeout: 120_000 });
  await expect(madeOn(page, 'device')).toHaveCount(3);

  // The server returns: new images go to it again.
  server = await startServer(PORT, { STATIC_DIR, DATA_DIR: server.dataDir });
  // The queue's own probe notices (within its back-off, at most 10 s).
  await expect(page.getByTestId('queue-paused')).toHaveCount(0, { timeout: 30_000 });
  await upscale(page, pngFiles(2, 40, 20));
  await expect(cards(page, 'completed')).toHaveCount(5, { timeout: 120_000 });
  await expect(madeOn(page, 'server')).toHaveCount(2);
  await expect(madeOn(page, 'device')).toHaveCount(3);
});
