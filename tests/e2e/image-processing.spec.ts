// Image enhancement in Chromium against the companion server with the real Real-CUGAN engine,
// seen through a counting proxy: upload checks, the window of three, cancel, navigation, reload
// and a cut connection in the middle of a batch.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServer, type RunningServer } from './server-process';
import { pngFiles, signIn, startCountingProxy, type CountingProxy } from './image-processing-helpers';

const PORT = 8131;
let server: RunningServer;
let proxy: CountingProxy;

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  // E2E_STATIC_DIR: a private build, when other suites rebuild dist/ at the same time.
  server = await startServer(
    PORT,
    process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {},
  );
  // Each upscale request is held a little before it reaches the server, so a batch of small
  // images still shows its window of three and can be cancelled mid-flight.
  proxy = await startCountingProxy(PORT, { delayMs: 600 });
});

test.afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

test.beforeEach(() => proxy.resetCounters());

async function open(page: Page): Promise<void> {
  await signIn(page, proxy.url);
  await expect(page.getByTestId('image-processing-page')).toBeVisible();
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();
}

async function addImages(page: Page, files: ReturnType<typeof pngFiles>): Promise<void> {
  await page.getByTestId('upload-input').setInputFiles(files);
  await expect(page.getByTestId('pending-file')).toHaveCount(files.length);
}

/** Results the server's engine produced so far: one folder per finished run (a cancelled run writes none). */
const resultsOnServer = () => {
  const dir = path.join(server.dataDir, 'upscale-results');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

/**
 * The server ran the model at most once per item: one key per item, and no key answered 200 by a
 * run of its own twice. A resend after a finished run is answered from it (idempotent-replayed); a
 * resend after an attempt the reload cut before its answer runs once more, since the server
 * cancelled the cut one (a cancelled run keeps no result: the callers count the results too).
 */
function expectOneRunPerItem(items: number): void {
  expect(new Set(proxy.keys).size).toBe(items);
  const runs = new Map<string, number>();
  for (const k of proxy.ranKeys) runs.set(k, (runs.get(k) ?? 0) + 1);
  for (const [key, n] of runs) expect(n, `finished runs of ${key}`).toBe(1);
}

const cards = (page: Page, status?: string) =>
  page.locator(
    status ? `[data-testid="result-card"][data-status="${status}"]` : '[data-testid="result-card"]',
  );

test('upload lists every rejected file with its reason and keeps the accepted ones over a reload', async ({
  page,
}) => {
  await open(page);
  const bmpNamedPng = {
    name: 'looks-like.png',
    mimeType: 'image/png',
    buffer: Buffer.from('BM' + 'x'.repeat(64)),
  };
  const huge = {
    name: 'huge.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(10 * 1024 * 1024)]),
  };
  await page.getByTestId('upload-input').setInputFiles([...pngFiles(2), bmpNamedPng, huge]);
  const rejected = page.getByTestId('rejected-file');
  await expect(rejected).toHaveCount(2);
  await expect(rejected.filter({ hasText: 'looks-like.png' })).toContainText(
    'not a JPEG, PNG, GIF or WebP image',
  );
  await expect(rejected.filter({ hasText: 'huge.jpg' })).toContainText('larger than 10 MB');
  await expect(page.getByTestId('pending-file')).toHaveCount(2);
  // Thumbnails come from the worker as blob: images.
  await expect(page.locator('[data-testid="pending-file"] img').first()).toHaveAttribute('src', /^blob:/);

  await page.reload();
  await expect(page.getByTestId('pending-file')).toHaveCount(2);
});

test('a batch of 7 runs three at a time, cancels one mid-flight and survives navigation', async ({
  page,
}) => {
  await open(page);
  // Large enough that the engine, not the proxy's hold, keeps the server busy: the window is seen
  // there (128 px images now finish in tens of milliseconds, before a poll can see three held).
  await addImages(page, pngFiles(7, 256));
  await page.getByTestId('start-upscale').click();

  // The window fills: three requests held by the server, never a fourth.
  await expect.poll(() => proxy.serverActive, { intervals: [20] }).toBe(3);
  expect(proxy.maxConcurrent).toBe(3);

  // Cancel an image while its request is open: the third, which waits on the server behind the
  // other two (one engine slot), so it cannot finish between seeing it in progress and the click.
  const cancelled = cards(page).filter({ hasText: 'fabric-03.png' });
  await expect(cancelled).toHaveAttribute('data-status', 'processing');
  await cancelled.getByTestId('item-cancel').click();
  await expect(cancelled).toHaveAttribute('data-status', 'cancelled');
  await expect(cancelled.getByTestId('item-status')).toHaveText('Cancelled');
  await expect(cancelled.getByTestId('item-error')).toHaveCount(0);
  // Counted where the server holds requests: Chromium closes an aborted request's socket on another
  // channel than the one that opens the next, so the proxy's front door may meet the next request a
  // moment before the old socket's close; the proxy forwards each request after a hold, by which
  // time the aborted one is gone. What the server held never exceeded three.
  await expect.poll(() => proxy.serverActive).toBeLessThanOrEqual(3);
  expect(proxy.maxServerConcurrent).toBeLessThanOrEqual(3);
  const keysBeforeCancel = [...proxy.keys];
  proxy.resetCounters();

  // Away to home: the shell's indicator keeps counting; back again, the batch is still there.
  await page.goto(`${proxy.url}/#/`);
  await expect(page.getByTestId('queue-indicator')).toBeVisible();
  await page.goto(`${proxy.url}/#/image-processing`);
  await expect(cards(page, 'completed')).toHaveCount(6, { timeout: 60_000 });
  await expect(cards(page, 'cancelled')).toHaveCount(1);

  expect(proxy.maxServerConcurrent).toBeLessThanOrEqual(3);
  // Every image was sent once: seven distinct keys at most (the cancelled one may not have left).
  const keys = [...keysBeforeCancel, ...proxy.keys];
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys.length).toBeLessThanOrEqual(7);

  const meta = cards(page, 'completed').first().getByTestId('item-meta');
  await expect(meta).toContainText('up2x-conservative');
  await expect(meta).toContainText('2x');
  await expect(meta).toContainText('512×512');
  await expect(page.getByTestId('queue-indicator')).toHaveCount(0);

  // Single-file download of one result.
  const download = page.waitForEvent('download');
  await cards(page, 'completed').first().getByTestId('item-download').click();
  expect((await download).suggestedFilename()).toMatch(/fabric-0\d.*up2x-conservative.*\.png$/);
});

test('a reload in the middle of a batch resumes it by itself, and the server runs the model once per item', async ({
  page,
}) => {
  await open(page);
  const resultsBefore = resultsOnServer();
  // Images large enough that the engine is busy with each for a while, even on a fast machine.
  await addImages(page, pngFiles(7, 256, 10));
  await page.getByTestId('start-upscale').click();
  await expect(cards(page, 'processing')).toHaveCount(3);
  // Reload while the server holds requests, so the resend meets work it already has.
  await expect.poll(() => proxy.serverActive, { intervals: [20], timeout: 20_000 }).toBeGreaterThan(0);
  await page.reload();

  await expect(page.getByTestId('result-card')).toHaveCount(7);
  // No clicks: requests cut short by the reload go again with their kept keys.
  await expect(cards(page, 'completed')).toHaveCount(7, { timeout: 60_000 });
  await expect(cards(page, 'interrupted')).toHaveCount(0);
  expectOneRunPerItem(7);
  expect(resultsOnServer() - resultsBefore).toBe(7);
  expect(proxy.maxServerConcurrent).toBeLessThanOrEqual(3);
  const resent = proxy.keys.length - new Set(proxy.keys).size;
  console.log(
    `reload mid-batch: ${resent} requests resent with their key, ${proxy.replayedKeys.length} answered as replays`,
  );
});

test('a cut connection pauses the batch and it resumes by itself, running the model once per item', async ({
  page,
}) => {
  await open(page);
  const resultsBefore = resultsOnServer();
  await addImages(page, pngFiles(8, 32, 20));
  await page.getByTestId('start-upscale').click();
  // Cut as soon as the first results are in (the window finishes them in threes).
  await expect.poll(() => cards(page, 'completed').count(), { timeout: 30_000 }).toBeGreaterThan(0);

  await proxy.cut();
  expect(await cards(page, 'completed').count()).toBeLessThan(8);
  await expect(page.getByTestId('queue-paused')).toBeVisible({ timeout: 15_000 });
  const sentWhileDown = proxy.keys.length;
  await page.waitForTimeout(3000);
  expect(proxy.keys.length).toBe(sentWhileDown);
  await proxy.restore();

  await expect(page.getByTestId('queue-paused')).toHaveCount(0, { timeout: 20_000 });
  // No clicks: every image completes, the ones cut short resent with their kept keys.
  await expect(cards(page, 'completed')).toHaveCount(8, { timeout: 60_000 });
  await expect(cards(page, 'interrupted')).toHaveCount(0);
  expectOneRunPerItem(8);
  expect(resultsOnServer() - resultsBefore).toBe(8);
  expect(proxy.maxServerConcurrent).toBeLessThanOrEqual(3);
});
