// The offline core end to end, proven on prompt management, against a production build served by
// the real companion server behind a proxy that can take the whole origin away.
import { writeFileSync, mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';
import {
  apiCall,
  freePort,
  openSignedIn,
  signInApi,
  startOriginProxy,
  storedData,
  waitForPersistedCache,
  waitForServiceWorker,
  type OriginProxy,
} from './offline-helpers';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let proxy: OriginProxy;
let adminToken: string;

test.beforeAll(async () => {
  const port = await freePort();
  server = await startServer(port);
  proxy = await startOriginProxy(port, await freePort());
  adminToken = (await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password)).token;
});

test.afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

async function setPrompt(type: string, content: string | null): Promise<void> {
  await apiCall(server.url, 'DELETE', `/prompts/${type}/`, adminToken);
  if (content !== null) await apiCall(server.url, 'POST', '/prompts/', adminToken, { type, content });
}

test('the service worker installs, activates and controls the page', async ({ page }) => {
  const grant = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  const sw = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const names = await caches.keys();
    return { state: registration?.active?.state, scope: registration?.scope, controlled: !!navigator.serviceWorker.controller, names };
  });
  expect(sw).toMatchObject({ state: 'activated', scope: `${proxy.url}/`, controlled: true });
  expect(sw.names.some((n) => n.startsWith('workbox-precache'))).toBe(true);
});

test('offline, a reload renders the shell and the cached prompts with their saved time', async ({ page }) => {
  await setPrompt('image', 'Soft linen on a sunlit terrace, full-length model');
  await setPrompt('video', null);
  const grant = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByTestId('prompt-content-image')).toHaveText('Soft linen on a sunlit terrace, full-length model');
  await waitForPersistedCache(page, `id:${grant.user.id}`);
  // Let the worker finish caching what the first load fetched before it took control.
  await page.waitForTimeout(500);

  await proxy.cut();
  try {
    const started = Date.now();
    await page.reload();
    await expect(page.getByTestId('app-shell')).toBeVisible();
    await expect(page.getByTestId('prompt-content-image')).toHaveText('Soft linen on a sunlit terrace, full-length model');
    const interactive = Date.now() - started;
    await expect(page.getByRole('button', { name: 'Edit' }).first()).toBeEnabled();
    await expect(page.getByTestId('saved-at-note')).toContainText(/Offline — saved|saved/);
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'false');
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/offline-reload.json', JSON.stringify({ offlineReloadToInteractiveMs: interactive }));
    console.log(`offline reload to interactive: ${interactive} ms`);
  } finally {
    await proxy.restore();
  }
});

test('an edit made offline is replayed exactly once on reconnect, also across a reload', async ({ page }) => {
  await setPrompt('video', 'Model walks toward the camera, slow pan');
  const grant = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByTestId('prompt-content-video')).toHaveText('Model walks toward the camera, slow pan');
  await waitForPersistedCache(page, `id:${grant.user.id}`);
  await page.waitForTimeout(500);
  const before = proxy.applied().length;

  await proxy.cut();
  const card = page.getByTestId('prompt-card-video');
  await page.reload();
  await expect(page.getByTestId('prompt-content-video')).toBeVisible();
  await card.getByRole('button', { name: 'Edit' }).click();
  const text = card.getByRole('textbox');
  await text.fill('Offline edit: model turns slowly, fabric catches the light');
  await expect(card.getByTestId('prompt-count')).toHaveText('58 / 1000');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved offline; it will be sent when the connection is back')).toBeVisible();
  await expect(page.getByTestId('prompt-pending-video')).toBeVisible();
  await expect(page.getByTestId('prompt-content-video')).toHaveText('Offline edit: model turns slowly, fabric catches the light');
  await expect(page.getByTestId('online-indicator')).toContainText('1 change waiting');

  // Still offline, the queued edit survives a reload.
  await page.reload();
  await expect(page.getByTestId('prompt-pending-video')).toBeVisible();
  expect(proxy.applied().length).toBe(before);

  await proxy.restore();
  await expect(page.getByTestId('prompt-pending-video')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');
  const server = await apiCall<{ content: string; updated_by: string }>(proxy.url, 'GET', '/prompts/video/', adminToken);
  expect(server.data.content).toBe('Offline edit: model turns slowly, fabric catches the light');

  // A later reload and reconnect find nothing more to send.
  await page.reload();
  await expect(page.getByTestId('prompt-content-video')).toHaveText('Offline edit: model turns slowly, fabric catches the light');
  await page.waitForTimeout(1000);
  const applied = proxy.applied().slice(before);
  expect(applied).toHaveLength(1);
  expect(applied[0]).toMatchObject({ method: 'PUT', path: '/api/prompts/video/' });
  expect(applied[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
});

test('a change refused on replay shows the server message and keeps the text', async ({ page }) => {
  await setPrompt('moments', null);
  const grant = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByTestId('prompt-card-moments').getByRole('button', { name: 'Create' })).toBeVisible();
  await waitForPersistedCache(page, `id:${grant.user.id}`);
  await page.waitForTimeout(500);

  await proxy.cut();
  const card = page.getByTestId('prompt-card-moments');
  await card.getByRole('button', { name: 'Create' }).click();
  await card.getByRole('textbox').fill('My offline moments copy: breathable summer linen');
  await card.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByTestId('prompt-pending-moments')).toBeVisible();
  // Meanwhile another administrator creates the same type.
  await setPrompt('moments', 'Copy written by a colleague');
  await proxy.restore();

  await expect(page.getByTestId('prompt-refused-moments')).toContainText('A prompt of this type already exists; edit it instead', { timeout: 20_000 });
  await expect(page.getByTestId('prompt-refused-moments')).toContainText('My offline moments copy: breathable summer linen');
  await expect(page.getByTestId('prompt-content-moments')).toHaveText('Copy written by a colleague');
  await page.getByTestId('prompt-refused-moments').getByRole('button', { name: 'Edit again with my text' }).click();
  await expect(card.getByRole('textbox')).toHaveValue('My offline moments copy: breathable summer linen');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('prompt-content-moments')).toHaveText('My offline moments copy: breathable summer linen');
});

test('logout leaves no IndexedDB data or user caches of that user', async ({ page }) => {
  await setPrompt('image', 'Image prompt for the logout test');
  const grant = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByTestId('prompt-content-image')).toBeVisible();
  await waitForPersistedCache(page, `id:${grant.user.id}`);
  // A queued change and a cached media file of this user, to see them go too.
  await proxy.cut();
  const card = page.getByTestId('prompt-card-image');
  await card.getByRole('button', { name: 'Edit' }).click();
  await card.getByRole('textbox').fill('Unsent change');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('prompt-pending-image')).toBeVisible();
  await proxy.restore();
  await page.evaluate(async () => {
    const cache = await caches.open('loom-user-media');
    await cache.put('/files/thumb/1.webp', new Response(new Blob(['x'], { type: 'image/webp' })));
  });
  const filled = await storedData(page);
  expect(filled.stores['query-cache']?.count).toBe(1);
  expect(filled.caches).toContain('loom-user-media');

  await page.goto(`${proxy.url}/#/settings`);
  await page.getByTestId('logout').click();
  await page.getByRole('dialog').getByRole('button', { name: /log out|sign out/i }).click();
  await expect(page.getByTestId('login-page')).toBeVisible();
  const after = await storedData(page);
  for (const [name, store] of Object.entries(after.stores)) expect(store.count, name).toBe(0);
  expect(after.caches.filter((n) => n.startsWith('loom-user-'))).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});
