// A tablet at a fair that opens the laptop's address over plain http (README: "Serving the PWA to
// tablets on a LAN") is not a secure context: no service worker, and no crypto.randomUUID. The app
// still works there while the network is up. Chromium resolves a made-up host name to this machine,
// so the page is not on localhost (which browsers treat as secure) and the test needs no network.
import { expect, test, type Page } from '@playwright/test';
import { chromiumArgs } from '../../playwright.config';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';
import { pngFiles } from './image-processing-helpers';
import { apiCall, openSignedIn, signInApi, type Grant } from './offline-helpers';

const PORT = 8141;
const HOST = 'fair-laptop.test';
let server: RunningServer;

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...chromiumArgs, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  },
});
test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

test.beforeAll(async () => {
  server = await startServer(PORT, process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {});
});
test.afterAll(async () => {
  await server?.stop();
});

const lanUrl = `http://${HOST}:${PORT}`;

/** Signs in through the API (from this machine) and opens `route` on the LAN address, signed in. */
async function signInOverLan(page: Page, route: string): Promise<Grant> {
  const grant = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, lanUrl, grant, `#/${route}`);
  // What the test is about: this page has none of a secure context's features.
  expect(await page.evaluate(() => ({ secure: isSecureContext, uuid: typeof crypto.randomUUID }))).toEqual({
    secure: false,
    uuid: 'undefined',
  });
  return grant;
}

test('photos added on a plain-http LAN address are kept, upscaled and shown', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInOverLan(page, 'image-processing');
  await expect(page.getByTestId('image-processing-page')).toBeVisible();
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();
  await page.getByTestId('upload-input').setInputFiles(pngFiles(2, 48));
  await expect(page.getByTestId('pending-file')).toHaveCount(2);
  await page.getByTestId('start-upscale').click();
  await expect(page.locator('[data-testid="result-card"][data-status="completed"]')).toHaveCount(2, { timeout: 60_000 });
  expect(errors).toEqual([]);
});

test('a prompt written on a plain-http LAN address reaches the server', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const grant = await signInOverLan(page, 'prompt-management');
  const card = page.getByTestId('prompt-card-video');
  await card.getByRole('button', { name: 'Create' }).click();
  await card.getByRole('textbox').fill('Written at the fair over plain http');
  await card.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByTestId('prompt-content-video')).toHaveText('Written at the fair over plain http');
  await expect(page.getByTestId('prompt-pending-video')).toHaveCount(0, { timeout: 20_000 });
  const stored = await apiCall<{ content: string }>(server.url, 'GET', '/prompts/video/', grant.token);
  expect(stored.data.content).toBe('Written at the fair over plain http');
  expect(errors).toEqual([]);
});

test('every page opens on a plain-http LAN address, and a workshop item runs there', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInOverLan(page, '');
  for (const route of ['', 'video-generation', 'collections', 'history', 'settings', 'gemini-banana']) {
    await page.goto(`${lanUrl}/#/${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await expect(page.getByTestId('page-gemini-banana')).toBeVisible();
  await page.getByTestId('workshop-text').fill('Fabric notes typed on a tablet at the fair');
  await page.getByTestId('workshop-add').click();
  const item = page.getByTestId('workshop-item').first();
  await expect(item).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  // Copy works without the Clipboard API (a secure context's only): the result's text is what the
  // browser's copy command takes.
  expect(await page.evaluate(() => typeof navigator.clipboard)).toBe('undefined');
  await page.evaluate(() => {
    document.addEventListener('copy', () => {
      (window as { copied?: string }).copied = document.getSelection()?.toString() ?? '';
    });
  });
  await item.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByText('Copied', { exact: true })).toBeVisible();
  const copied = await page.evaluate(() => (window as { copied?: string }).copied);
  expect(copied).toBe((await item.getByTestId('workshop-result-text').innerText()).trim());
  expect(errors).toEqual([]);
});
