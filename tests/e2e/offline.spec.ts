// The offline core end to end, proven on prompt management, against a production build served by
// the real companion server behind a proxy that can take the whole origin away.
import { writeFileSync, mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';
import {
  apiCall,
  freePort,
  openSignedIn,
  signInApi,
  showImage,
  startOriginProxy,
  storedData,
  tracesOf,
  waitForCachedMedia,
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

/** Edits one prompt card the way a designer does: Edit, type, Save. */
async function editPrompt(page: Page, type: string, content: string): Promise<void> {
  const card = page.getByTestId(`prompt-card-${type}`);
  await card.getByRole('button', { name: 'Edit' }).click();
  await card.getByRole('textbox').fill(content);
  await card.getByRole('button', { name: 'Save' }).click();
}

/**
 * The session ends on the server while the connection is away: its refresh token revoked and its
 * access tokens void, so the page's copy in memory is as dead as the stored one (a reachability
 * probe between the restore and the reload cannot send with it). Back online, a reload meets a 401.
 */
async function expireSessionAndReload(page: Page): Promise<void> {
  const { token, refreshToken } = await page.evaluate(() => ({
    token: localStorage.getItem('token'),
    refreshToken: localStorage.getItem('refreshToken'),
  }));
  expect(refreshToken, 'the page holds a refresh token').toBeTruthy();
  const ended = await apiCall(server.url, 'POST', '/user/logout/', undefined, {
    refresh_token: refreshToken,
  });
  expect(ended.status, ended.message).toBe(200);
  expect((await apiCall(server.url, 'GET', '/user/profile', token ?? undefined)).status).toBe(401);
  await proxy.restore();
  await page.reload();
  await expect(page.getByTestId('login-page')).toBeVisible({ timeout: 20_000 });
}

async function signInWithForm(page: Page, account: string, password: string): Promise<void> {
  await page.getByTestId('login-username').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/#\/$/);
}

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
    return {
      state: registration?.active?.state,
      scope: registration?.scope,
      controlled: !!navigator.serviceWorker.controller,
      names,
    };
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
  await expect(page.getByTestId('prompt-content-image')).toHaveText(
    'Soft linen on a sunlit terrace, full-length model',
  );
  await waitForPersistedCache(page, `id:${grant.user.id}`);
  // Let the worker finish caching what the first load fetched before it took control.
  await page.waitForTimeout(500);

  await proxy.cut();
  try {
    const started = Date.now();
    await page.reload();
    await expect(page.getByTestId('app-shell')).toBeVisible();
    await expect(page.getByTestId('prompt-content-image')).toHaveText(
      'Soft linen on a sunlit terrace, full-length model',
    );
    const interactive = Date.now() - started;
    await expect(page.getByRole('button', { name: 'Edit' }).first()).toBeEnabled();
    await expect(page.getByTestId('saved-at-note')).toHaveText(
      /^Offline — saved (now|\d+ seconds? ago|\d+ minutes? ago)$/,
    );
    await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'false');
    mkdirSync('test-results', { recursive: true });
    writeFileSync(
      'test-results/offline-reload.json',
      JSON.stringify({ offlineReloadToInteractiveMs: interactive }),
    );
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
  await expect(page.getByTestId('prompt-content-video')).toHaveText(
    'Model walks toward the camera, slow pan',
  );
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
  await expect(page.getByTestId('prompt-content-video')).toHaveText(
    'Offline edit: model turns slowly, fabric catches the light',
  );
  await expect(page.getByTestId('online-indicator')).toContainText('1 change waiting');

  // Still offline, the queued edit survives a reload.
  await page.reload();
  await expect(page.getByTestId('prompt-pending-video')).toBeVisible();
  expect(proxy.applied().length).toBe(before);

  await proxy.restore();
  await expect(page.getByTestId('prompt-pending-video')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');
  const server = await apiCall<{ content: string; updated_by: string }>(
    proxy.url,
    'GET',
    '/prompts/video/',
    adminToken,
  );
  expect(server.data.content).toBe('Offline edit: model turns slowly, fabric catches the light');

  // A later reload and reconnect find nothing more to send.
  await page.reload();
  await expect(page.getByTestId('prompt-content-video')).toHaveText(
    'Offline edit: model turns slowly, fabric catches the light',
  );
  await page.waitForTimeout(1000);
  const applied = proxy.applied().slice(before);
  expect(applied).toHaveLength(1);
  expect(applied[0]).toMatchObject({ method: 'PUT', path: '/api/prompts/video/' });
  expect(applied[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  // Not merely deduplicated by the server: that edit reached it exactly once.
  expect(proxy.writes.filter((w) => w.key === applied[0]?.key)).toHaveLength(1);
});

test('a server error while online is said as such and retried on its own, honouring Retry-After', async ({
  page,
}) => {
  await setPrompt('video', 'Before the server hiccup');
  const grant = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByTestId('prompt-content-video')).toHaveText('Before the server hiccup');
  const before = proxy.writes.length;

  proxy.failWrites(1, 503, 1);
  await editPrompt(page, 'video', 'Saved after the server came back');
  await expect(
    page.getByText(
      'The server could not save it right now (Service temporarily unavailable). The change is kept and will be sent again automatically.',
    ),
  ).toBeVisible();
  await expect(page.getByText('Saved offline; it will be sent when the connection is back')).toHaveCount(0);
  await expect(page.getByTestId('online-indicator')).toHaveAttribute('data-online', 'true');

  // No reconnect, no reload, no new save: the retry alone sends it.
  await expect(page.getByTestId('prompt-pending-video')).toHaveCount(0, { timeout: 20_000 });
  const writes = proxy.writes.slice(before);
  expect(writes.map((w) => w.status)).toEqual([503, 200]);
  expect(new Set(writes.map((w) => w.key)).size).toBe(1);
  const server = await apiCall<{ content: string }>(proxy.url, 'GET', '/prompts/video/', adminToken);
  expect(server.data.content).toBe('Saved after the server came back');
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

  await expect(page.getByTestId('prompt-refused-moments')).toContainText(
    'A prompt of this type already exists; edit it instead',
    { timeout: 20_000 },
  );
  await expect(page.getByTestId('prompt-refused-moments')).toContainText(
    'My offline moments copy: breathable summer linen',
  );
  await expect(page.getByTestId('prompt-content-moments')).toHaveText('Copy written by a colleague');
  await page
    .getByTestId('prompt-refused-moments')
    .getByRole('button', { name: 'Edit again with my text' })
    .click();
  await expect(card.getByRole('textbox')).toHaveValue('My offline moments copy: breathable summer linen');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('prompt-content-moments')).toHaveText(
    'My offline moments copy: breathable summer linen',
  );
});

/** Not precached, so the service worker's media rule caches it and Workbox records its last use. */
const MEDIA = '/screenshots/narrow.png';

test('logout leaves no IndexedDB data or cache entries of that user', async ({ page }) => {
  await setPrompt('image', 'Image prompt for the logout test');
  const grant = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  const userKey = `id:${grant.user.id}`;
  await openSignedIn(page, proxy.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByTestId('prompt-content-image')).toBeVisible();
  await waitForPersistedCache(page, userKey);
  await showImage(page, MEDIA);
  await waitForCachedMedia(page, MEDIA);

  // A queued change of this user, still waiting when they log out (offline).
  await proxy.cut();
  try {
    await editPrompt(page, 'image', 'Unsent change of the logged-out user');
    await expect(page.getByTestId('prompt-pending-image')).toBeVisible();
    const filled = await storedData(page);
    expect(filled.stores.outbox).toEqual({ count: 1, userKeys: [userKey] });
    expect(filled.stores['query-cache']?.userKeys).toEqual([userKey]);
    const needles = [userKey, 'Unsent change of the logged-out user', MEDIA];
    expect((await tracesOf(page, needles)).traces).toEqual(
      expect.arrayContaining([
        `loom-studio/outbox: ${userKey}`,
        `workbox-expiration/cache-entries: ${MEDIA}`,
        `cache loom-user-media: ${MEDIA}`,
      ]),
    );

    await page.goto(`${proxy.url}/#/settings`);
    await page.getByTestId('logout').click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /log out|sign out/i })
      .click();
    await expect(page.getByTestId('login-page')).toBeVisible();
    const after = await tracesOf(page, needles);
    expect(after.databases).toContain('loom-studio');
    expect(after.traces).toEqual([]);
    const stores = (await storedData(page)).stores;
    for (const [name, store] of Object.entries(stores)) expect(store.count, name).toBe(0);
    expect((await page.evaluate(() => caches.keys())).filter((n) => n.startsWith('loom-user-'))).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  } finally {
    await proxy.restore();
  }
});

test('an expired session keeps the edit queued offline: the same designer signs in again and it is sent once', async ({
  page,
}) => {
  await setPrompt('moments', 'Moments copy before the expiry');
  const grant = await signInApi(proxy.url, E2E_ADMIN.account, E2E_ADMIN.password);
  await openSignedIn(page, proxy.url, grant, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByTestId('prompt-content-moments')).toHaveText('Moments copy before the expiry');
  await waitForPersistedCache(page, `id:${grant.user.id}`);
  const writesBefore = proxy.writes.length;

  await proxy.cut();
  await editPrompt(page, 'moments', 'Edit that outlives the session');
  await expect(page.getByTestId('prompt-pending-moments')).toBeVisible();

  await expireSessionAndReload(page);
  // The designer's session ended on the server, and with it the token this suite calls with.
  adminToken = (await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password)).token;
  expect((await storedData(page)).stores.outbox?.count).toBe(1);

  await signInWithForm(page, E2E_ADMIN.account, E2E_ADMIN.password);
  await expect.poll(async () => (await storedData(page)).stores.outbox?.count, { timeout: 20_000 }).toBe(0);
  const applied = proxy.writes
    .slice(writesBefore)
    .filter((w) => w.status >= 200 && w.status < 300 && !w.replayed);
  expect(applied).toHaveLength(1);
  const serverSide = await apiCall<{ content: string }>(proxy.url, 'GET', '/prompts/moments/', adminToken);
  expect(serverSide.data.content).toBe('Edit that outlives the session');
});

test("account switch: A's expired session, then B signs in: nothing of A remains and A's edit is never sent as B", async ({
  page,
}) => {
  await setPrompt('moments', 'Moments copy before the switch');
  const suffix = Date.now().toString(36);
  const accounts = [`e2e-switch-a-${suffix}`, `e2e-switch-b-${suffix}`];
  for (const account of accounts) {
    const created = await apiCall(server.url, 'POST', '/users/', adminToken, {
      account,
      password: 'switch-pass-1',
      user_level: 'ADMIN',
      display_name: account,
      phone: `137${String(Date.now()).slice(-8)}`,
      international_code: '86',
      wechat_account: account,
    });
    expect(created.status, created.message).toBe(201);
    await new Promise((r) => setTimeout(r, 5));
  }
  const [accountA, accountB] = accounts as [string, string];
  const grantA = await signInApi(proxy.url, accountA, 'switch-pass-1');
  const keyA = `id:${grantA.user.id}`;
  await openSignedIn(page, proxy.url, grantA, '#/prompt-management');
  await waitForServiceWorker(page);
  await expect(page.getByTestId('prompt-content-moments')).toHaveText('Moments copy before the switch');
  await waitForPersistedCache(page, keyA);
  await showImage(page, MEDIA);
  await waitForCachedMedia(page, MEDIA);
  const writesBefore = proxy.writes.length;

  // A queues an edit offline.
  await proxy.cut();
  await editPrompt(page, 'moments', 'Edit queued by A');
  await expect(page.getByTestId('prompt-pending-moments')).toBeVisible();
  expect((await storedData(page)).stores.outbox).toEqual({ count: 1, userKeys: [keyA] });

  // A's session expires, then the connection is back; B signs in on the same browser.
  await expireSessionAndReload(page);
  await signInWithForm(page, accountB, 'switch-pass-1');
  await page.goto(`${proxy.url}/#/prompt-management`);
  await expect(page.getByTestId('prompt-content-moments')).toHaveText('Moments copy before the switch');
  await page.waitForTimeout(1500);

  const left = await tracesOf(page, [keyA, 'Edit queued by A', MEDIA]);
  expect(left.traces).toEqual([]);
  // A's edit was never applied, under any session.
  const aWrites = proxy.writes.slice(writesBefore);
  expect(aWrites.filter((w) => w.status >= 200 && w.status < 300)).toEqual([]);
  const serverSide = await apiCall<{ content: string; updated_by: string }>(
    proxy.url,
    'GET',
    '/prompts/moments/',
    adminToken,
  );
  expect(serverSide.data.content).toBe('Moments copy before the switch');
  await expect(page.getByTestId('prompt-pending-moments')).toHaveCount(0);
});
