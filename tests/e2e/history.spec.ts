// History end to end against the real companion server, with items made by the built-in engine:
// both tabs, load more across three pages, an image that fails to load and is retried, each
// dialog's fields, a video that plays, a retry, the fork into the workflow, keyboard and tablet
// viewports; then offline browsing after one visit (server gone, reload) and a logout that
// leaves nothing of it on the device.
import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './accessibility';
import { analyseOnce, listAll, makeVideo, type ListedItem } from './history-helpers';
import {
  apiCall,
  openSignedIn,
  signInApi,
  startOriginProxy,
  storedData,
  tracesOf,
  waitForCachedMedia,
  waitForServiceWorker,
  type Grant,
  type OriginProxy,
} from './offline-helpers';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';

test.describe.configure({ mode: 'serial' });

const PORT = 8151;
const RUNS = 5; // six images each: 30 images, pages of 12 → three pages
let server: RunningServer;
let proxy: OriginProxy;
let grant: Grant;
let images: ListedItem[];
let newest: ListedItem;
let videoId: number;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer(PORT);
  proxy = await startOriginProxy(PORT);
  grant = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await Promise.all([1, 2].map((n) => analyseOnce(server.url, grant.token, n)));
  await Promise.all([3, 4].map((n) => analyseOnce(server.url, grant.token, n)));
  // The last one alone: the newest images are all of run 5.
  await analyseOnce(server.url, grant.token, 5);
  images = await listAll(server.url, grant.token, '/user/generated-images');
  expect(images).toHaveLength(RUNS * 6);
  newest = images[0]!;
  videoId = await makeVideo(server.url, grant.token, newest.id, 'Slow pan across the linen');
});

test.afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

const listItems = (page: Page, kind: 'images' | 'videos') => page.getByTestId(`history-${kind}-list`).locator(':scope > li');

test.describe('online', () => {
  // Routes see every request of the page only without a service worker in between.
  test.use({ serviceWorkers: 'block', viewport: { width: 1024, height: 768 } });

  test('tabs, load more across three pages, and a thumbnail that fails then retries', async ({ page }) => {
    let failedOnce = false;
    await page.route(`**/image-${newest.id}-thumb.*`, (route) => {
      if (failedOnce) return route.continue();
      failedOnce = true;
      return route.abort();
    });
    await openSignedIn(page, server.url, grant, '#/history');
    const first = page.getByTestId(`history-image-${newest.id}`);
    await expect(first).toBeVisible();
    await expect(listItems(page, 'images').first()).toHaveAttribute('data-testid', `history-image-${newest.id}`);
    await expect(listItems(page, 'images')).toHaveCount(12);
    await expect(first.getByTestId('history-status')).toHaveAttribute('data-status', 'completed');

    // The thumbnail of the newest image did not load: said so, and a retry loads it.
    await expect(first.getByTestId('history-thumb-failed')).toContainText('Image failed to load');
    await first.getByRole('button', { name: 'Retry' }).click();
    await expect(first.getByTestId('history-thumb')).toHaveJSProperty('complete', true);
    expect(await first.getByTestId('history-thumb').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // Page two by the button, page three by scrolling to the end.
    await page.getByTestId('history-load-more').click();
    await expect(listItems(page, 'images')).toHaveCount(24);
    await page.getByTestId('history-load-more').scrollIntoViewIfNeeded();
    await expect(listItems(page, 'images')).toHaveCount(30);
    await expect(page.getByTestId('history-end')).toContainText('30 items');
    expect(await listItems(page, 'images').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(
      images.map((i) => `history-image-${i.id}`),
    );

    await page.getByTestId('history-tab-videos').click();
    await expect(page).toHaveURL(/tab=videos/);
    await expect(listItems(page, 'videos')).toHaveCount(1);
    await expect(page.getByTestId(`history-video-${videoId}`).getByTestId('history-status')).toHaveAttribute('data-status', 'completed');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('image detail: every field, copy, viewer, and the video made from it', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSignedIn(page, server.url, grant, '#/history');
    await page.getByTestId(`history-image-${newest.id}`).getByTestId('history-open').click();
    const dialog = page.getByTestId('image-detail');
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`image=${newest.id}`));
    await expect(dialog.getByTestId('field-user-prompt')).toContainText('Summer linen dress, run 5');
    await expect(dialog.getByTestId('field-model-images').locator('img')).toHaveCount(1);
    await expect(dialog.getByTestId('field-pattern-images').locator('img')).toHaveCount(1);
    await expect(dialog.getByTestId('field-moments')).toContainText('New fabric');
    await expect(dialog.getByTestId('field-video-prompts')).toBeVisible();
    await expect(dialog.getByTestId('field-created')).toContainText('2026');
    await expect(dialog.getByTestId('field-size')).toContainText(/\d+ × \d+/);
    await expect(dialog.getByTestId('field-style')).not.toContainText('None');
    await expect(dialog.getByTestId('field-model')).toContainText('loom-local-preview');
    await expect(dialog.getByTestId('field-request')).toContainText('history-e2e-5');
    await expect(dialog.getByTestId('field-source')).toContainText('Original');
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByTestId('field-user-prompt').getByRole('button').click();
    await expect(dialog.getByTestId('field-user-prompt').getByRole('button')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Summer linen dress, run 5');

    await dialog.getByTestId('open-viewer').click();
    const viewer = page.locator('[role="dialog"][aria-modal="true"]');
    await expect(viewer).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();

    await dialog.getByTestId('field-videos').getByRole('button', { name: new RegExp(`Video #${videoId}`) }).click();
    const video = page.getByTestId('video-detail');
    await expect(video).toBeVisible();
    await expect(video.getByTestId('field-source-image')).toContainText(`Image #${newest.id}`);
  });

  test('a detail that fails to load says so and loads on retry; download saves the file', async ({ page }) => {
    let failedOnce = false;
    await page.route(`**/api/user/generated-images/${newest.id}`, (route) => {
      if (failedOnce) return route.continue();
      failedOnce = true;
      return route.abort('connectionreset');
    });
    await openSignedIn(page, server.url, grant, `#/history?image=${newest.id}`);
    const dialog = page.getByTestId('image-detail');
    await expect(dialog.getByTestId('detail-load-failed')).toContainText('Could not load the details');
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await expect(dialog.getByTestId('field-user-prompt')).toContainText('Summer linen dress, run 5');
    const download = page.waitForEvent('download');
    await dialog.getByTestId('download').click();
    expect((await download).suggestedFilename()).toBe(`image-${newest.id}.jpg`);
  });

  test('video detail: every field, it plays, a retry, and the fork into the workflow', async ({ page }) => {
    await openSignedIn(page, server.url, grant, `#/history?tab=videos&video=${videoId}`);
    const dialog = page.getByTestId('video-detail');
    await expect(dialog.getByTestId('field-status')).toContainText('Completed');
    await expect(dialog.getByTestId('field-resolution')).toHaveText(/512P/);
    await expect(dialog.getByTestId('field-duration')).toContainText('6 seconds');
    await expect(dialog.getByTestId('field-model')).toContainText('loom-local-preview');
    await expect(dialog.getByTestId('field-dimensions')).toContainText(/\d+ × \d+/);
    await expect(dialog.getByTestId('field-video-prompt')).toContainText('Slow pan across the linen');
    await expect(dialog.getByTestId('field-style')).not.toContainText('None');
    await expect(dialog.getByTestId('field-first-frame').locator('img')).toHaveCount(1);
    await expect(dialog.getByTestId('field-generated-by')).toContainText('local');
    await expect(dialog.getByTestId('field-moments')).toContainText('New fabric');
    await expect(dialog.getByTestId('field-requested')).toContainText('2026');
    await expect(dialog.getByTestId('field-completed')).toContainText('2026');
    await expect(dialog.getByTestId('field-processing')).toContainText(/\d+ min \d+ s/);
    await expect(dialog.getByTestId('field-task-id')).not.toContainText('None');
    await expect(dialog.getByTestId('field-file-id')).not.toContainText('None');
    await expect(dialog.getByTestId('field-optimizer')).toContainText('Yes');
    await expect(dialog.getByTestId('field-watermark')).toContainText('No');
    await expect(dialog.getByTestId('field-source-image')).toContainText(`Image #${newest.id}`);

    // It plays: time moves on.
    const player = dialog.getByTestId('video-player');
    await expect(player).toBeVisible();
    await player.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play();
    });
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.3);
    expect(await seriousViolations(page)).toEqual([]);

    // Retry from the original parameters: a new video, opened, that completes.
    await dialog.getByTestId('retry-video').click();
    const retried = videoId + 1;
    await expect(page).toHaveURL(new RegExp(`video=${retried}`));
    const next = page.getByTestId('video-detail');
    await expect(next.getByRole('heading', { name: `Video #${retried}` })).toBeVisible();
    await expect(next.getByTestId('field-status').getByTestId('history-status')).toHaveAttribute('data-status', 'completed', {
      timeout: 30_000,
    });
    await next.getByRole('button', { name: 'Close' }).click();
    await expect(listItems(page, 'videos')).toHaveCount(2);

    // "Use these settings": the workflow opened with this video to pre-fill from.
    await page.getByTestId(`history-video-${retried}`).getByTestId('history-open').click();
    await page.getByTestId('video-detail').getByTestId('use-settings').click();
    await expect(page).toHaveURL(new RegExp(`#/video-generation\\?from=video:${retried}$`));
  });

  test('a video that cannot be fetched says to check the network, and plays on retry', async ({ page }) => {
    let failedOnce = false;
    await page.route(`**/video-${videoId}.mp4*`, (route) => {
      if (failedOnce) return route.continue();
      failedOnce = true;
      return route.abort('connectionreset');
    });
    await openSignedIn(page, server.url, grant, `#/history?tab=videos&video=${videoId}`);
    const dialog = page.getByTestId('video-detail');
    await expect(dialog.getByTestId('playback-error')).toContainText('Video playback failed, please check your network');
    await expect(dialog.getByTestId('playback-error')).toHaveAttribute('data-error', 'network');
    await dialog.getByTestId('playback-error').getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => dialog.getByTestId('video-player').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  });

  test('home: recent work shows the newest items and opens their details', async ({ page }) => {
    await openSignedIn(page, server.url, grant, '#/');
    const recent = page.getByTestId('home-recent');
    await expect(recent.locator(':scope > li')).toHaveCount(6);
    // The retried video is the newest item of all.
    await expect(recent.locator(':scope > li').first().getByRole('link')).toHaveAttribute('data-testid', `home-recent-video-${videoId + 1}`);
    await expect(page.getByTestId(`home-recent-video-${videoId}`)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId(`home-recent-video-${videoId}`).click();
    await expect(page.getByTestId('video-detail')).toBeVisible();
    await expect(page.getByTestId('history-tab-videos')).toHaveAttribute('aria-selected', 'true');
  });

  test('keyboard: tabs by arrow keys, a detail opened with Enter and closed with Escape', async ({ page }) => {
    await openSignedIn(page, server.url, grant, '#/history');
    await expect(listItems(page, 'images')).toHaveCount(12);
    await page.getByTestId('history-tab-images').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('history-tab-videos')).toBeFocused();
    await expect(page.getByTestId('history-tab-videos')).toHaveAttribute('aria-selected', 'true');
    await expect(listItems(page, 'videos').first()).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(listItems(page, 'videos').first().getByTestId('history-open')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('video-detail')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('video-detail')).toHaveCount(0);
  });

  for (const viewport of [
    { width: 768, height: 1024 },
    { width: 1024, height: 768 },
  ]) {
    test(`tablet ${viewport.width}x${viewport.height}: the list and a detail fit`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await openSignedIn(page, server.url, grant, '#/history');
      await expect(listItems(page, 'images')).toHaveCount(12);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(page.getByTestId(`history-image-${newest.id}`).getByTestId('history-thumb')).toHaveJSProperty('complete', true);
      await page.waitForTimeout(600);
      await page.screenshot({ path: test.info().outputPath('history-list.png') });
      await page.getByTestId(`history-image-${newest.id}`).getByTestId('history-open').click();
      await expect(page.getByTestId('field-user-prompt')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('image-detail.png') });
      const box = await page.getByTestId('image-detail').boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      const open = await page.getByTestId('open-viewer').boundingBox();
      expect(open!.height).toBeGreaterThanOrEqual(44);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});

test.describe('live status', () => {
  test.use({ serviceWorkers: 'block' });

  test('running videos move to completed while the page is open, over the event stream', async ({ page }) => {
    const spec = { image_id: newest.id, kind: 'standard', prompt: 'Live status check', duration: 6, resolution: '512P' };
    const created = await apiCall<{ id: number }[]>(server.url, 'POST', '/user/video-generations', grant.token, {
      items: [spec, spec],
    });
    expect(created.status).toBe(201);
    const last = created.data[1]!.id;
    const events = page.waitForRequest(/\/api\/user\/video-generations\/events\?ids=/);
    await openSignedIn(page, server.url, grant, '#/history?tab=videos');
    const status = page.getByTestId(`history-video-${last}`).getByTestId('history-status');
    await expect(status).toHaveAttribute('data-status', /pending|generating/);
    await events;
    await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  });
});

test('offline after one visit: history and an opened detail still there; logout leaves nothing', async ({ page }) => {
  test.setTimeout(90_000);
  const userKey = `id:${grant.user.id}`;
  const proxied = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, proxied, '#/history');
  await waitForServiceWorker(page);
  // A load under the worker's control, so the thumbnails go into its media cache.
  await page.reload();
  await expect(listItems(page, 'images')).toHaveCount(12);
  const thumbPath = newest.thumbnail_url!;
  await waitForCachedMedia(page, thumbPath);
  await page.getByTestId(`history-image-${newest.id}`).getByTestId('history-open').click();
  await expect(page.getByTestId('image-detail').getByTestId('field-user-prompt')).toContainText('run 5');
  await expect(page.getByTestId('detail-image')).toHaveJSProperty('complete', true);
  await page.getByTestId('image-detail').getByRole('button', { name: 'Close', exact: true }).click();
  // Saved to IndexedDB (the persisted cache of this user, detail included).
  await expect
    .poll(async () => (await tracesOf(page, ['history-e2e-5'])).traces, { timeout: 15_000 })
    .toContain('loom-studio/query-cache: history-e2e-5');

  const seen = await listItems(page, 'images').count();
  const footprint = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('loom-studio');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const records = await new Promise<unknown[]>((resolve) => {
      const req = db.transaction('query-cache').objectStore('query-cache').getAll();
      req.onsuccess = () => resolve(req.result);
    });
    db.close();
    const cache = await caches.open('loom-user-media');
    let thumbs = 0;
    let thumbBytes = 0;
    for (const request of await cache.keys()) {
      if (!/-thumb\./.test(request.url)) continue;
      thumbs += 1;
      thumbBytes += (await (await cache.match(request))!.blob()).size;
    }
    return { queryCacheBytes: JSON.stringify(records).length, thumbs, thumbBytes };
  });
  console.log(`kept for ${seen} items and one detail: ${JSON.stringify(footprint)}`);
  await proxy.cut();
  let reloadMs: number;
  try {
    const started = Date.now();
    await page.reload();
    const first = page.getByTestId(`history-image-${newest.id}`);
    await expect(first.getByTestId('history-thumb')).toHaveJSProperty('complete', true);
    reloadMs = Date.now() - started;
    expect(await first.getByTestId('history-thumb').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // Every item seen (within the budget) is there; loading more waits for the network.
    await expect(listItems(page, 'images')).toHaveCount(seen);
    await expect(page.getByTestId('saved-at-note')).toBeVisible();
    await first.getByTestId('history-open').click();
    const dialog = page.getByTestId('image-detail');
    await expect(dialog.getByTestId('field-user-prompt')).toContainText('Summer linen dress, run 5');
    await expect(dialog.getByTestId('field-moments')).toContainText('New fabric');
    expect(await page.getByTestId('detail-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    writeFileSync('/tmp/history-offline-reload.json', JSON.stringify({ reloadMs, seen, footprint }));
  } finally {
    await proxy.restore();
  }

  await page.goto(`${proxy.url}/#/settings`);
  await page.getByTestId('logout').click();
  await page.getByRole('dialog').getByRole('button', { name: /log out|sign out/i }).click();
  await expect(page.getByTestId('login-page')).toBeVisible();
  const after = await tracesOf(page, [userKey, 'history-e2e-', thumbPath.split('?')[0]!]);
  expect(after.traces).toEqual([]);
  for (const [name, store] of Object.entries((await storedData(page)).stores)) expect(store.count, name).toBe(0);
  console.log(`offline reload of #/history: ${reloadMs} ms`);
});
