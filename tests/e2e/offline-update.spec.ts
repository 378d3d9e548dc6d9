// The update flow against two real builds: the page runs build 1; build 2 (a second `vite build`
// into its own folder) replaces the served files; the update check finds it, a toast offers the
// reload and nothing reloads until the user clicks.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';
import { freePort, openSignedIn, signInApi, waitForServiceWorker } from './offline-helpers';

let served: string;
let secondBuild: string;
let server: RunningServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  served = mkdtempSync(path.join(tmpdir(), 'loom-served-'));
  secondBuild = mkdtempSync(path.join(tmpdir(), 'loom-build-2-'));
  cpSync('dist', served, { recursive: true });
  execFileSync('npx', ['vite', 'build', '--outDir', secondBuild, '--emptyOutDir', '--logLevel', 'error'], {
    env: { ...process.env, LOOM_BUILD_ID: 'e2e-second-build' },
    stdio: 'inherit',
  });
  server = await startServer(await freePort(), { STATIC_DIR: served });
});

test.afterAll(async () => {
  await server?.stop();
  for (const dir of [served, secondBuild]) if (dir) rmSync(dir, { recursive: true, force: true });
});

function workerBuild(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return reject(new Error('no controlling worker'));
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve((event.data as { build: string }).build);
        controller.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
      }),
  );
}

test('a second build triggers the update toast, and the reload happens only when asked', async ({ page }) => {
  const grant = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, server.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByRole('heading', { name: 'Prompt management' })).toBeVisible();
  const firstBuild = await workerBuild(page);
  expect(firstBuild).not.toBe('e2e-second-build');
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  // A second tab of the same app, as on a shared tablet.
  const tabB = await page.context().newPage();
  await tabB.goto(`${server.url}/#/prompt-management`);
  await expect(tabB.getByRole('heading', { name: 'Prompt management' })).toBeVisible();
  await tabB.evaluate(() => ((window as unknown as { marker: number }).marker = 2));

  // Deploy build 2 over build 1, as a server update would.
  for (const entry of readdirSync(served)) rmSync(path.join(served, entry), { recursive: true, force: true });
  cpSync(secondBuild, served, { recursive: true });
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());

  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'A new version is ready' });
  await expect(toast).toBeVisible({ timeout: 20_000 });
  // Never reloads by itself: the page (and its state) is still the same one.
  await page.waitForTimeout(1500);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  expect(await workerBuild(page)).toBe(firstBuild);

  await Promise.all([
    page.waitForEvent('framenavigated'),
    toast.getByRole('button', { name: 'Reload' }).click(),
  ]);
  await expect(page.getByRole('heading', { name: 'Prompt management' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBeUndefined();
  await waitForServiceWorker(page);
  expect(await workerBuild(page)).toBe('e2e-second-build');

  // Tab B was switched to the new worker by tab A's Reload but kept its page; nothing waits any
  // more, and its own Reload must still reload (not hang on "Reloading…").
  const toastB = tabB.locator('[data-sonner-toast]').filter({ hasText: 'A new version is ready' });
  await expect(toastB).toBeVisible();
  expect(await tabB.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(2);
  await Promise.all([
    tabB.waitForEvent('framenavigated'),
    toastB.getByRole('button', { name: 'Reload' }).click(),
  ]);
  await expect(tabB.getByRole('heading', { name: 'Prompt management' })).toBeVisible();
  expect(await tabB.evaluate(() => (window as unknown as { marker?: number }).marker)).toBeUndefined();
  expect(await workerBuild(tabB)).toBe('e2e-second-build');
});
