// The video workflow in Chromium against the companion server with its built-in engine, as a
// GENERAL user: the whole flow to a playable MP4, the 6/6/10 limits with their messages, a reload
// in the middle of the analysis, quick mode, and videos started once when the answer to their start
// is lost. Keyboard, accessibility and both tablet viewports.
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './accessibility';
import { pngFiles, startCountingProxy } from './image-processing-helpers';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';
import { fillInfo, loginGrant, openVideoPage, toCandidates } from './video-helpers';

const PORT = 8171;
const GENERAL = { account: 'vg-general', password: 'vg-general-pass' };
let server: RunningServer;

test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

const login = (account: string, password: string) => loginGrant(server.url, account, password);

test.beforeAll(async () => {
  server = await startServer(PORT, process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {});
  const admin = await login(E2E_ADMIN.account, E2E_ADMIN.password);
  const res = await fetch(`${server.url}/api/users/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({ account: GENERAL.account, password: GENERAL.password, user_level: 'GENERAL', display_name: 'Designer' }),
  });
  expect(res.status).toBeLessThan(300);
});

test.afterAll(async () => {
  await server?.stop();
});

const open = (page: Page, base = server.url) => openVideoPage(page, base, GENERAL);

/** Clears what the previous test left of the draft: its run and its images. */
async function clearDraft(page: Page): Promise<void> {
  if (await page.getByTestId('start-over').isVisible()) await page.getByTestId('start-over').click();
  for (const role of ['model', 'pattern']) {
    while ((await page.getByTestId(`thumb-${role}`).count()) > 0) await page.getByTestId(`thumb-${role}`).first().getByRole('button').click();
  }
}

const shot = async (page: Page, name: string) => {
  if (process.env.VIDEO_SHOTS) await page.screenshot({ path: `${process.env.VIDEO_SHOTS}/${name}.png`, fullPage: true });
};

test('a GENERAL user runs the whole flow to a playable MP4, by keyboard where it counts', async ({ page }) => {
  const started = Date.now();
  await page.setViewportSize({ width: 768, height: 1024 });
  await open(page);
  await fillInfo(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, '1-info');
  await page.getByTestId('step-next').click();
  await shot(page, '2-prompt');
  await page.getByTestId('step-back').click();
  await toCandidates(page);
  await expect(page.getByTestId('analysis-progress-message')).toBeVisible();
  await shot(page, '3-images');
  await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 60_000 });
  await expect(page.getByTestId('step-next')).toHaveText(/video prompts/i);
  const analysed = Date.now();
  await expect(page.getByTestId('local-preview')).toBeVisible();
  await expect(page.getByTestId('analysis-text')).not.toBeEmpty();
  expect(await seriousViolations(page)).toEqual([]);
  const noScroll = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(noScroll).toBe(true);
  await shot(page, '4-select');

  // Select the first candidate by keyboard.
  await page.getByTestId('candidate-select').first().focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('selected-count')).toHaveText('1 selected');
  await page.getByTestId('step-next').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('video-prompt-text')).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId('step-next')).toHaveText(/Generate videos/);
  await expect(page.getByTestId('video-prompt-select').first()).toBeChecked();
  const prompted = Date.now();
  await shot(page, '6-select-prompts');
  // Back keeps the selection; forward again.
  await page.getByTestId('step-back').click();
  await expect(page.getByTestId('selected-count')).toHaveText('1 selected');
  await page.getByTestId('step-selectPrompts').click();
  await page.getByTestId('video-prompt-text').first().fill('A slow push in over the silk, soft light.');
  await page.getByTestId('setting-duration').first().selectOption('6');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('videos-progress')).toBeVisible();
  await shot(page, '7-videos');
  await expect(page.getByTestId('complete-message')).toBeVisible({ timeout: 60_000 });
  const done = Date.now();
  await shot(page, '8-complete');
  await expect(page.getByTestId('video-card')).toHaveAttribute('data-status', 'completed');
  const src = await page.getByTestId('video-player').getAttribute('src');
  expect(src).toBeTruthy();
  const mp4 = await page.evaluate(async (url) => {
    const r = await fetch(url!);
    const b = new Uint8Array(await r.arrayBuffer());
    return { type: r.headers.get('content-type'), ftyp: String.fromCharCode(...b.slice(4, 8)), size: b.length };
  }, src);
  expect(mp4.ftyp).toBe('ftyp');
  await expect(page.getByTestId('video-history')).toHaveAttribute('href', /#\/history/);
  // Plays in the browser.
  const playable = await page.getByTestId('video-player').evaluate(
    (v: HTMLVideoElement) => new Promise<boolean>((resolve) => {
      if (v.readyState >= 1) return resolve(v.duration > 0);
      v.addEventListener('loadedmetadata', () => resolve(v.duration > 0), { once: true });
      v.addEventListener('error', () => resolve(false), { once: true });
      v.load();
    }),
  );
  expect(playable).toBe(true);
  await page.setViewportSize({ width: 1024, height: 768 });
  expect(await seriousViolations(page)).toEqual([]);
  console.log(
    `timings: analysis+candidates ${analysed - started} ms, video prompts ${prompted - analysed} ms, videos ${done - prompted} ms, whole ${done - started} ms, mp4 ${mp4.size} bytes`,
  );
});

test('the 6/6/10 limits say the count and how many could not be added; the draft survives a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await open(page);
  if (await page.getByTestId('start-over').isVisible()) await page.getByTestId('start-over').click();
  await page.getByTestId('input-model').setInputFiles(pngFiles(8, 24));
  await expect(page.getByText('Model images: 6 of 6. 2 could not be added.')).toBeVisible();
  await page.getByTestId('input-pattern').setInputFiles(pngFiles(6, 24, 10));
  await expect(page.getByText('Images in all: 10 of 10. 2 could not be added.')).toBeVisible();
  await expect(page.getByTestId('count-model')).toHaveText('6 / 6');
  await expect(page.getByTestId('count-pattern')).toHaveText('4 / 6');
  await page.getByTestId('field-fabric_name').fill('Linen blend');
  await page.waitForTimeout(500);
  await page.reload();
  await expect(page.getByTestId('field-fabric_name')).toHaveValue('Linen blend');
  await expect(page.getByTestId('thumb-pattern')).toHaveCount(4);
});

test('reload in the middle of the analysis continues without retyping, then quick mode goes straight to videos', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await open(page);
  await clearDraft(page);
  await fillInfo(page);
  await toCandidates(page);
  await expect(page.getByTestId('analysis-progress-message')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 60_000 });
  await expect(page.getByTestId('step-next')).toHaveText(/video prompts/i);
  await page.getByTestId('step-info').click();
  await expect(page.getByTestId('field-fabric_name')).toHaveValue('Silk chiffon');
  await expect(page.getByTestId('field-transparency-custom')).toHaveValue('see-through when wet');
  await page.getByTestId('step-select').click();
  await page.getByTestId('candidate-select').nth(1).check();
  await page.getByTestId('candidate-select').nth(2).check();
  await page.getByTestId('quick-mode').click();
  // Two videos, rendered one after the other: the second waits and is cancelled, then retried
  // from its original parameters.
  await expect(page.getByTestId('video-card')).toHaveCount(2, { timeout: 30_000 });
  const second = page.getByTestId('video-card').nth(1);
  await second.getByRole('button', { name: 'Cancel' }).click();
  await expect(second.getByTestId('video-retry')).toBeVisible({ timeout: 30_000 });
  await second.getByTestId('video-retry').click();
  await expect(page.getByTestId('complete-message')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('video-card')).toHaveCount(2);
  await expect(page.getByTestId('video-card').nth(0)).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('video-card').nth(1)).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('complete-message')).toHaveText('2 of 2 videos are ready.');
});

test('regenerate twice quickly: the first is cancelled and only the images of the second stay; a cut video prompt stream is asked again', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await open(page);
  await fillInfo(page);
  await toCandidates(page);
  await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 60_000 });
  await expect(page.getByTestId('regen-area')).toBeVisible();
  await page.getByTestId('candidate-select').first().check();
  const regenerated = page.locator('[data-testid="candidate"][data-source="regenerated"]');
  await page.getByTestId('regen-prompt').fill('warmer tones');
  await page.getByTestId('regen-start').click();
  await expect(page.getByTestId('regen-cancel')).toBeDisabled({ timeout: 30_000 });
  const one = await regenerated.count();
  expect(one).toBeGreaterThan(0);
  await page.getByTestId('regen-clear').click();
  await expect(regenerated).toHaveCount(0);
  await page.getByTestId('candidate-select').first().check();
  await page.getByTestId('regen-prompt').fill('cooler tones');
  await page.getByTestId('regen-start').click();
  await page.getByTestId('regen-start').click();
  await expect(page.getByTestId('regen-cancel')).toBeDisabled({ timeout: 30_000 });
  await page.waitForTimeout(500);
  await expect(regenerated).toHaveCount(one);

  // The video prompt stream cut once: asked again by itself, three prompts all the same.
  let cut = 0;
  await page.route('**/video-prompts-stream', async (route) => {
    if (cut++ === 0) await route.abort('connectionreset');
    else await route.continue();
  });
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('video-prompt-text')).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId('step-next')).toHaveText(/Generate videos/);
  expect(cut).toBe(2);
});

test('the connection cut mid-analysis: the page reconnects to the same work; a reload mid-video picks the videos up again', async ({ page }) => {
  test.setTimeout(120_000);
  const proxy = await startCountingProxy(PORT);
  try {
    await page.setViewportSize({ width: 1024, height: 768 });
    await open(page, proxy.url);
    await fillInfo(page);
    await toCandidates(page);
    await expect(page.getByTestId('analysis-progress-message')).toBeVisible();
    await proxy.cut();
    await page.waitForTimeout(1500);
    await proxy.restore();
    await runRest(page);
  } finally {
    await proxy.close();
  }
});

async function runRest(page: Page) {
  await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 60_000 });
  await page.getByTestId('candidate-select').first().check();
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('video-prompt-text')).toHaveCount(3, { timeout: 30_000 });
  await page.getByTestId('setting-kind').selectOption('first-last-frame');
  await page.getByTestId('setting-last-frame').selectOption({ index: 1 });
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('video-card')).toHaveCount(1, { timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId('complete-message')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('video-card')).toHaveAttribute('data-status', 'completed');
}

test('"use these settings" from history pre-fills a new run from a video', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await open(page);
  const videoId = await page.evaluate(async () => {
    const token = localStorage.getItem('token');
    const r = await fetch('/api/user/video-generations', { headers: { authorization: `Bearer ${token}` } });
    const body = (await r.json()) as { data: { items: { id: number; kind: string }[] } };
    return body.data.items.find((v) => v.kind === 'first-last-frame')?.id ?? body.data.items[0]!.id;
  });
  await page.goto(`${server.url}/#/video-generation?from=video:${videoId}`);
  await expect(page.getByTestId('candidate')).toHaveCount(2);
  await expect(page.getByTestId('selected-count')).toHaveText('1 selected');
  await expect(page).toHaveURL(/#\/video-generation$/);
  await page.getByTestId('step-info').click();
  await expect(page.getByTestId('field-fabric_name')).toHaveValue('Silk chiffon');
  await expect(page.getByTestId('field-luster')).toHaveValue('soft');
  await expect(page.getByTestId('field-transparency-custom')).toHaveValue('see-through when wet');
  await expect(page.getByTestId('thumb-model')).toHaveCount(1);
  await page.getByTestId('step-prompt').click();
  await expect(page.getByTestId('prompt-select')).toBeChecked();
});

test('offline: the form stays usable and is kept, the page says what needs the network', async ({ page, context }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await open(page);
  await context.setOffline(true);
  await page.getByTestId('field-fabric_name').fill('Offline voile');
  await page.getByTestId('input-pattern').setInputFiles(pngFiles(1, 32));
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('offline-note')).toBeVisible();
  await expect(page.getByTestId('step-next')).toBeDisabled();
  await page.getByTestId('prompt-select').check();
  expect(await seriousViolations(page)).toEqual([]);
  await context.setOffline(false);
  await expect(page.getByTestId('offline-note')).toBeHidden({ timeout: 20_000 });
  await expect(page.getByTestId('step-next')).toBeEnabled();
  await page.getByTestId('step-info').click();
  await expect(page.getByTestId('field-fabric_name')).toHaveValue('Offline voile');
  await expect(page.getByTestId('thumb-pattern')).toHaveCount(1);
});

/** The user's videos newer than `afterId` (the list is newest first). */
const videosAfter = (page: Page, afterId: number) =>
  page.evaluate(async (after) => {
    const token = localStorage.getItem('token');
    const r = await fetch('/api/user/video-generations?limit=20', { headers: { authorization: `Bearer ${token}` } });
    const body = (await r.json()) as { data: { items: { id: number }[] } };
    return body.data.items.map((v) => v.id).filter((id) => id > after);
  }, afterId);

test.describe('page.route sees the calls', () => {
  // No service worker between the page and the network here.
  test.use({ serviceWorkers: 'block' });

  test('an answer lost on the way back: the videos are asked for again under the same key and started once', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await open(page);
    await clearDraft(page);
    await fillInfo(page);
    await toCandidates(page);
    await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 60_000 });
    const newest = Math.max(0, ...(await videosAfter(page, 0)));
    const keys: string[] = [];
    await page.route('**/api/user/video-generations', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (keys.length > 1) return route.fallback();
      // The server starts the video; its answer never reaches the page.
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.getByTestId('candidate-select').first().check();
    await page.getByTestId('quick-mode').click();
    await expect(page.getByTestId('complete-message')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('video-card')).toHaveCount(1);
    await expect(page.getByTestId('video-card')).toHaveAttribute('data-status', 'completed');
    expect(await videosAfter(page, newest)).toHaveLength(1);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});
