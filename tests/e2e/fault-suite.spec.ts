// The flaky network of a trade fair, made on purpose by a proxy in front of the companion server:
// random resets of uploads with reloads, uploads reset for 20 s while small requests answer, the
// server killed and restarted mid-batch, and a prompt edit made while uploads fail. In each, the
// batch finishes with no click, and the server ran the model once per image (counted on the
// server: one result folder per finished run). Each test prints its time beside a batch with no
// faults.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { startServer, type RunningServer } from './server-process';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
import { pngFiles, signIn } from './image-processing-helpers';
import { apiCall, signInApi } from './offline-helpers';
import { E2E_ADMIN } from './server-process';
import { storedUploads } from '../support/stored-uploads';

const PORT = 8141;
const BATCH = 30;
/** Small images: the suite is about the network, not the engine. Each upload is about 7 KB. */
const SIZE = 48;
let server: RunningServer;
let proxy: FaultProxy;

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

const serverEnv = () => ({
  ...(process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {}),
  LOGIN_MAX_ATTEMPTS: '1000',
});

test.beforeAll(async () => {
  server = await startServer(PORT, serverEnv());
});

test.afterAll(async () => {
  await server?.stop();
});

test.beforeEach(async () => {
  // A new seed per test, the same on every run.
  proxy = await startFaultProxy(PORT, 1000 + test.info().title.length);
});

test.afterEach(async () => {
  await proxy?.close();
});

/**
 * Finished engine runs on the server: each publishes one result folder. A cancelled run writes
 * none; a run killed while writing its result leaves only the staged file (`<name>.<hex>.tmp`),
 * which was never published, so its resend runs again and that folder is not a finished run.
 */
const runsOnServer = () => {
  const dir = path.join(server.dataDir, 'upscale-results');
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).filter((folder) => readdirSync(path.join(dir, folder)).some((f) => !f.endsWith('.tmp'))).length;
};

const cards = (page: Page, status: string) => page.locator(`[data-testid="result-card"][data-status="${status}"]`);

async function startBatch(page: Page, offset: number): Promise<number> {
  await signIn(page, proxy.url);
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();
  await page.getByTestId('upload-input').setInputFiles(pngFiles(BATCH, SIZE, offset));
  await expect(page.getByTestId('pending-file')).toHaveCount(BATCH);
  await page.getByTestId('start-upscale').click();
  await expect(page.getByTestId('result-card')).toHaveCount(BATCH);
  return Date.now();
}

/** Every image done, none failed or waiting for a person, and one finished run per image on the server. */
async function expectEveryImageOnce(page: Page, runsBefore: number, timeout = 200_000): Promise<void> {
  try {
    await expect(cards(page, 'completed')).toHaveCount(BATCH, { timeout });
  } catch (error) {
    // What the queue on the device holds of the unfinished images says why they stopped.
    console.log(`unfinished queue items: ${JSON.stringify(await unfinishedItems(page))}`);
    throw error;
  }
  await expect(cards(page, 'failed')).toHaveCount(0);
  await expect(cards(page, 'interrupted')).toHaveCount(0);
  expect(runsOnServer() - runsBefore).toBe(BATCH);
}

/** The queue's items on the device (IndexedDB) that are not completed, with the time there. */
function unfinishedItems(page: Page): Promise<{ now: number; items: unknown[] }> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('loom-studio');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = await new Promise<{ status: string }[]>((resolve, reject) => {
      const read = db.transaction('upscale-queue').objectStore('upscale-queue').getAll();
      read.onsuccess = () => resolve(read.result as { status: string }[]);
      read.onerror = () => reject(read.error);
    });
    db.close();
    return { now: Date.now(), items: all.filter((item) => item.status !== 'completed') };
  });
}

function report(name: string, started: number): void {
  const c = proxy.counts;
  const distinct = new Set(c.uploadKeys).size;
  console.log(
    `fault suite: ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s for ${BATCH} images; ` +
      `${c.uploads} upload attempts for ${distinct} keys, ${c.resetBeforeServer} reset before the server, ` +
      `${c.resetAfterServer} reset after it answered, ${c.largeBodiesCut} large bodies cut, ` +
      `${c.whileHostCut} requests while the host was cut; server runs per image: 1`,
  );
}

test('baseline: a batch of 30 with no faults', async ({ page }) => {
  const runsBefore = runsOnServer();
  const started = await startBatch(page, 100);
  await expectEveryImageOnce(page, runsBefore);
  report('no faults', started);
});

test('30 % of uploads reset at random and two reloads: every image completes, once each, with no click', async ({
  page,
}) => {
  const runsBefore = runsOnServer();
  proxy.resetUploads(0.3);
  const started = await startBatch(page, 200);
  await expect.poll(() => cards(page, 'completed').count(), { timeout: 120_000 }).toBeGreaterThanOrEqual(5);
  await page.reload();
  await expect(page.getByTestId('result-card')).toHaveCount(BATCH);
  await expect.poll(() => cards(page, 'completed').count(), { timeout: 120_000 }).toBeGreaterThanOrEqual(15);
  await page.reload();
  await expectEveryImageOnce(page, runsBefore);
  expect(proxy.counts.resetBeforeServer + proxy.counts.resetAfterServer).toBeGreaterThan(3);
  report('30 % of uploads reset, 2 reloads', started);
});

test('uploads reset for 20 s while small requests answer: the batch says it is retrying, then finishes by itself', async ({
  page,
}) => {
  const runsBefore = runsOnServer();
  const started = await startBatch(page, 300);
  await expect.poll(() => cards(page, 'completed').count(), { timeout: 120_000 }).toBeGreaterThanOrEqual(3);
  proxy.cutLargeBodies(2048);
  const cutAt = Date.now();
  // Told once, calmly, on the page and in the shell; each waiting image counts down to its next try.
  await expect(page.getByTestId('queue-retrying')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('queue-retrying')).toHaveCount(1);
  await expect(page.locator('[data-testid="queue-indicator"][data-retrying="true"]')).toBeVisible();
  await expect(page.getByTestId('item-retry-countdown').first()).toHaveText(/Retrying/);
  // The service's probe still answers, yet the failed uploads are not resent in a burst.
  await page.waitForTimeout(Math.max(0, 20_000 - (Date.now() - cutAt)));
  // Chromium itself resends a POST once, within milliseconds, when a reused connection is reset
  // before any answer: tries closer than 100 ms are one try of ours.
  const perImage = new Map<string, number[]>();
  for (const { key, at } of proxy.counts.largeBodyCuts) {
    const times = perImage.get(key) ?? [];
    if (times.length === 0 || at - times.at(-1)! > 100) times.push(at);
    perImage.set(key, times);
  }
  const attemptsWhileCut = proxy.counts.largeBodiesCut;
  proxy.cutLargeBodies(0);
  await expectEveryImageOnce(page, runsBefore);
  await expect(page.getByTestId('queue-retrying')).toHaveCount(0);
  const most = Math.max(...[...perImage.values()].map((t) => t.length));
  console.log(
    `fault suite: uploads reset for 20 s: ${attemptsWhileCut} upload attempts cut for ${perImage.size} images, at most ${most} tries for one image`,
  );
  // Each image backs off from 1 s (1, 2, 4, 8 s, jittered): about 5 tries in 20 s, not dozens.
  expect(most).toBeLessThanOrEqual(8);
  report('uploads reset for 20 s', started);
});

test('the server killed and restarted mid-batch: every image completes, once each, with no click', async ({ page }) => {
  const runsBefore = runsOnServer();
  const started = await startBatch(page, 400);
  await expect.poll(() => cards(page, 'completed').count(), { timeout: 120_000 }).toBeGreaterThanOrEqual(8);
  server.process.kill('SIGKILL');
  await new Promise((r) => server.process.once('exit', r));
  await expect(page.getByTestId('queue-paused')).toBeVisible({ timeout: 20_000 });
  await page.waitForTimeout(3000);
  server = await startServer(PORT, { ...serverEnv(), DATA_DIR: server.dataDir });
  await expectEveryImageOnce(page, runsBefore);
  report('server killed and restarted', started);
});

test('a prompt edit made while uploads are reset is sent exactly once', async ({ page }) => {
  const runsBefore = runsOnServer();
  const grant = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await apiCall(server.url, 'DELETE', '/prompts/video/', grant.token);
  await apiCall(server.url, 'POST', '/prompts/', grant.token, { type: 'video', content: 'Slow pan across the weave' });
  const started = await startBatch(page, 500);
  proxy.cutLargeBodies(2048);
  await expect(page.getByTestId('queue-retrying')).toBeVisible({ timeout: 15_000 });
  // The batch keeps running in the worker while the designer edits a prompt.
  await page.goto(`${proxy.url}/#/prompt-management`);
  const card = page.getByTestId('prompt-card-video');
  const text = `Slow pan across the weave, edited at the fair ${Date.now()}`;
  await card.getByRole('button', { name: 'Edit' }).click();
  await card.getByRole('textbox').fill(text);
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('prompt-content-video')).toHaveText(text);
  await expect(page.getByTestId('prompt-pending-video')).toHaveCount(0, { timeout: 30_000 });
  await page.waitForTimeout(5000);
  const edits = proxy.counts.otherKeyed.filter((r) => r.path.startsWith('/api/prompts'));
  expect(edits).toHaveLength(1);
  const stored = await apiCall<{ content: string }>(server.url, 'GET', '/prompts/video/', grant.token);
  expect(stored.data.content).toBe(text);
  proxy.cutLargeBodies(0);
  await page.goto(`${proxy.url}/#/image-processing`);
  await expectEveryImageOnce(page, runsBefore);
  report('prompt edit while uploads reset', started);
});

/**
 * A small image made large: its bytes are mostly a private ancillary chunk (which decoders skip),
 * so the upload is long while the engine's work stays that of a 48 px image.
 */
function paddedPng(png: Buffer, extra: number): Buffer {
  const data = randomBytes(extra);
  const type = Buffer.from('loOm', 'latin1');
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), head, type, data, crc, png.subarray(iend)]);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('resumable uploads through cuts every 2 s, random cuts, a reload and an outage: each file stored once, byte for byte', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const config = (await (await fetch(`${server.url}/config.json`)).json()) as { uploads?: { tus?: string } };
  // The server speaks tus by default: a config without it is a regression here, not a reason to skip.
  expect(config.uploads?.tus, 'config.json names the tus endpoint').toBeTruthy();
  const COUNT = 4;
  const files = pngFiles(COUNT, SIZE, 600).map((f) => ({ ...f, buffer: paddedPng(f.buffer, 1_200_000) }));
  const sums = new Map(files.map((f) => [sha256(f.buffer), f.name]));
  const bytes = files.reduce((n, f) => n + f.buffer.length, 0);
  const before = new Set((await storedUploads(server.dataDir)).keys());
  const runsBefore = runsOnServer();
  // A booth's link: 1 MB/s shared, every upload on the wire cut every 2 s.
  proxy.throttleUploads(1024 * 1024);
  proxy.cutUploadsEvery(2000);
  await signIn(page, proxy.url);
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();
  await page.getByTestId('upload-input').setInputFiles(files);
  await expect(page.getByTestId('pending-file')).toHaveCount(COUNT);
  const started = Date.now();
  await page.getByTestId('start-upscale').click();
  await expect(page.getByTestId('result-card')).toHaveCount(COUNT);
  // Reload in the middle, once the server holds part of the batch: the kept upload URLs resume.
  await expect.poll(() => proxy.counts.uploadBytesOut, { timeout: 30_000 }).toBeGreaterThan(1_500_000);
  await page.reload();
  await expect(page.getByTestId('result-card')).toHaveCount(COUNT);
  // Then a fair's 45-second outage in which only small requests pass (the uploads wait it out under
  // the retry policy, their items not failed), and cuts at random byte counts to the end.
  proxy.cutUploadsEvery(0);
  await proxy.outage(45_000);
  proxy.cutUploadsAtRandomBytes(700_000);
  const outageEnd = Date.now();
  await expect(cards(page, 'completed'))
    .toHaveCount(COUNT, { timeout: 90_000 })
    .catch(async (error: unknown) => {
      const states = await page.getByTestId('result-card').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-status')}: ${e.textContent}`));
      console.log(`fault suite: resumable uploads: cards at the end:\n${states.join('\n')}`);
      console.log(`unfinished queue items: ${JSON.stringify(await unfinishedItems(page))}`);
      throw error;
    });
  const afterOutage = (Date.now() - outageEnd) / 1000;
  proxy.cutUploadsAtRandomBytes(0);
  await expect(cards(page, 'failed')).toHaveCount(0);
  expect(runsOnServer() - runsBefore).toBe(COUNT);
  expect(proxy.counts.largeBodiesCut).toBeGreaterThan(0);
  expect(proxy.counts.uploadsCut).toBeGreaterThan(0);
  // Each file reached the server once, with its bytes.
  const stored = [...(await storedUploads(server.dataDir)).entries()].filter(([id]) => !before.has(id));
  const matched = stored.map(([, b]) => sums.get(sha256(b))).filter((n): n is string => !!n);
  expect(matched.sort()).toEqual(files.map((f) => f.name).sort());
  const c = proxy.counts;
  console.log(
    `fault suite: resumable uploads: ${((Date.now() - started) / 1000).toFixed(1)} s for ${COUNT} files of ${(bytes / COUNT / 1e6).toFixed(1)} MB; ` +
      `${c.uploads} upload requests, ${c.uploadsCut} cut on the wire, ` +
      `${c.largeBodiesCut} refused in the outage, done ${afterOutage.toFixed(1)} s after it; ` +
      `${(c.uploadBytesIn / bytes).toFixed(2)} bytes sent per byte stored`,
  );
});
