// Finished videos kept on the device (issue 25): the designer keeps a video from its detail, the
// settings show the space it takes against the budget, the whole origin goes away (a proxy in
// front of the real server: Playwright's setOffline does not stop the service worker's own
// fetches), and after a reload the video plays from the device and seeks, its byte ranges answered
// 206 by the service worker; logout wipes it.
import { expect, test, type Page } from '@playwright/test';
import { analyseOnce, listAll, makeVideo } from './history-helpers';
import {
  freePort,
  openSignedIn,
  signInApi,
  startOriginProxy,
  waitForServiceWorker,
  type Grant,
  type OriginProxy,
} from './offline-helpers';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

let server: RunningServer;
let proxy: OriginProxy;
let grant: Grant;
let videoId: number;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  server = await startServer(port, { LOGIN_MAX_ATTEMPTS: '1000' });
  proxy = await startOriginProxy(port, await freePort());
  grant = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await analyseOnce(server.url, grant.token, 1);
  const images = await listAll(server.url, grant.token, '/user/generated-images');
  videoId = await makeVideo(server.url, grant.token, images[0]!.id, 'A linen dress turns slowly in soft light');
});

test.afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

async function keptUsage(page: Page): Promise<{ count: number; bytes: number }> {
  const usage = page.getByTestId('kept-videos-usage');
  return { count: Number(await usage.getAttribute('data-count')), bytes: Number(await usage.getAttribute('data-bytes')) };
}

test('a kept video plays and seeks offline from the device, and logout wipes it', async ({ page }) => {
  await openSignedIn(page, proxy.url, grant, '#/settings');
  await waitForServiceWorker(page);
  // Only the videos chosen here, so the count below is this one.
  await page.getByTestId('kept-videos-latest').selectOption('0');
  await expect(page.getByTestId('kept-videos-usage')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('kept-videos-budget')).toHaveValue('500');

  await page.goto(`${proxy.url}/#/history?tab=videos&video=${videoId}`);
  const dialog = page.getByTestId('video-detail');
  await dialog.getByTestId('keep-video').click();
  await expect(dialog.getByTestId('video-kept')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(`Video ${videoId} is kept on this device`)).toBeVisible();

  await page.goto(`${proxy.url}/#/settings`);
  await expect(page.getByTestId('kept-videos-usage')).toHaveAttribute('data-count', '1');
  const { bytes } = await keptUsage(page);
  expect(bytes).toBeGreaterThan(10_000);
  await expect(page.getByTestId('kept-videos-usage')).toContainText('1 videos');

  // The whole origin away; a reload of the video's detail.
  const videoResponses: { status: number; fromWorker: boolean; range: string | null }[] = [];
  page.on('response', (response) => {
    if (/\.mp4(\?|$)/.test(response.url()))
      videoResponses.push({ status: response.status(), fromWorker: response.fromServiceWorker(), range: response.headers()['content-range'] ?? null });
  });
  await proxy.cut();
  try {
    await page.goto(`${proxy.url}/#/history?tab=videos&video=${videoId}`);
    const player = page.getByTestId('video-detail').getByTestId('video-player');
    await expect(player).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('video-detail').getByTestId('video-kept')).toBeVisible();
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const duration = await player.evaluate((v: HTMLVideoElement) => v.duration);
    expect(duration).toBeGreaterThan(1);
    // Plays, then seeks past the middle: the player asks for a range it has not read yet.
    await player.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play();
    });
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.2);
    const target = duration * 0.75;
    await player.evaluate(
      (v: HTMLVideoElement, to: number) =>
        new Promise<void>((resolve) => {
          v.addEventListener('seeked', () => resolve(), { once: true });
          v.currentTime = to;
        }),
      target,
    );
    expect(await player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(target - 0.5);
    expect(await player.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
    expect(videoResponses.some((r) => r.status === 206 && r.fromWorker && /^bytes \d+-\d+\/\d+$/.test(r.range ?? ''))).toBe(true);
    // A range asked directly, as a player seeking would: the exact bytes, 206, from the device.
    const src = (await player.getAttribute('src'))!;
    const ranged = await page.evaluate(async (url) => {
      const whole = await (await fetch(url)).arrayBuffer();
      const part = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
      const bytes = new Uint8Array(await part.arrayBuffer());
      const same = bytes.every((b, i) => b === new Uint8Array(whole)[1000 + i]);
      return { status: part.status, range: part.headers.get('content-range'), length: bytes.length, same, size: whole.byteLength };
    }, src);
    expect(ranged).toEqual({ status: 206, range: `bytes 1000-1999/${bytes}`, length: 1000, same: true, size: bytes });
  } finally {
    await proxy.restore();
  }

  // Logout wipes the kept videos with every user cache.
  await page.goto(`${proxy.url}/#/settings`);
  await page.getByTestId('logout').click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /log out|sign out/i })
    .click();
  await expect(page.getByTestId('login-page')).toBeVisible();
  expect((await page.evaluate(() => caches.keys())).filter((n) => n.startsWith('loom-user-'))).toEqual([]);
  expect(await page.evaluate(() => caches.has('loom-user-videos'))).toBe(false);
});

test('"keep the newest" keeps the latest finished videos by itself when history opens', async ({ page }) => {
  grant = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, grant, '#/settings');
  await waitForServiceWorker(page);
  // Off by default: nothing downloads until the person asks.
  await expect(page.getByTestId('kept-videos-latest')).toHaveValue('0');
  await page.getByTestId('kept-videos-latest').selectOption('1');
  await page.goto(`${proxy.url}/#/history?tab=videos`);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const index = await (await caches.open('loom-user-videos')).match('/__loom/kept-videos.json');
        return index ? ((await index.json()) as { videoId: number; chosen: boolean }[]) : [];
      }),
    )
    .toEqual([expect.objectContaining({ videoId, chosen: false })]);
  await page.goto(`${proxy.url}/#/settings`);
  await expect(page.getByTestId('kept-videos-usage')).toHaveAttribute('data-count', '1');
});
