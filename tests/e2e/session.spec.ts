import { expect, test } from '@playwright/test';
import { createUser, signInQuickly, storageOf } from './shell-helpers';

test('logout asks first; cancel keeps the session, confirm clears storage and returns to /login', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'ADMIN');
  await signInQuickly(page, request, user, '/#/settings');
  await page.evaluate(() => localStorage.setItem('language', 'en-US'));
  await page.getByTestId('logout').click();
  const dialog = page.getByRole('dialog', { name: 'Log out?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await storageOf(page)).token).toBeTruthy();
  const refreshToken = (await storageOf(page)).refreshToken;
  await page.getByTestId('logout').click();
  await dialog.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByText('You have been logged out')).toBeVisible();
  const stored = await storageOf(page);
  for (const key of ['token', 'refreshToken', 'isLoggedIn', 'username', 'userInfo'])
    expect(stored[key]).toBeUndefined();
  expect(stored.language).toBe('en-US');
  // The server revoked this device's refresh token.
  const refresh = await request.post('/api/user/refresh/', { data: { refresh_token: refreshToken } });
  expect(refresh.status()).toBe(401);
  await page.goto('/#/');
  await expect(page).toHaveURL(/#\/login$/);
});

test('logout clears this device even when the logout call fails', async ({ page, request }) => {
  const user = await createUser(request, 'DESIGNER');
  await signInQuickly(page, request, user, '/#/settings');
  const refreshToken = (await storageOf(page)).refreshToken;
  let attempted = 0;
  await page.route('**/api/user/logout/', async (route) => {
    attempted += 1;
    await route.abort('connectionrefused');
  });
  await page.getByTestId('logout').click();
  await page.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  expect(attempted).toBe(1);
  const stored = await storageOf(page);
  for (const key of ['token', 'refreshToken', 'isLoggedIn', 'username', 'userInfo'])
    expect(stored[key]).toBeUndefined();
  // The call really never reached the server: its refresh token still works there.
  const refresh = await request.post('/api/user/refresh/', { data: { refresh_token: refreshToken } });
  expect(refresh.status()).toBe(200);
  await page.goto('/#/');
  await expect(page).toHaveURL(/#\/login$/);
});

test('an expired session returns to /login with the notice after one refresh attempt', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'GENERAL');
  await signInQuickly(page, request, user, '/#/settings');
  await expect(page.getByTestId('settings-profile')).toContainText(user.account);
  const refreshCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/user/refresh/')) refreshCalls.push(r.url());
  });
  await page.evaluate(() => {
    localStorage.setItem('token', 'expired.or.forged');
    localStorage.setItem('refreshToken', 'revoked-refresh-token');
  });
  await page.reload();
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByText('Login expired, please log in again')).toBeVisible();
  expect(refreshCalls).toHaveLength(1);
  const stored = await storageOf(page);
  expect(stored.token).toBeUndefined();
  expect(stored.isLoggedIn).toBeUndefined();
});

test('a refused access token is refreshed silently and the refresh token rotates', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'GENERAL');
  await signInQuickly(page, request, user, '/#/settings');
  const before = await storageOf(page);
  await page.evaluate(() => localStorage.setItem('token', 'expired.or.forged'));
  await page.reload();
  await expect(page.getByTestId('settings-profile')).toContainText(user.account);
  await expect.poll(async () => (await storageOf(page)).token).not.toBe('expired.or.forged');
  const after = await storageOf(page);
  expect(after.refreshToken).not.toBe(before.refreshToken);
  await expect(page).toHaveURL(/#\/settings$/);
});

test('two tabs whose access token lapsed refresh at once with the one refresh token and both stay signed in', async ({
  context,
  page,
  request,
}) => {
  const user = await createUser(request, 'DESIGNER');
  await signInQuickly(page, request, user, '/#/settings');
  const second = await context.newPage();
  await second.goto('/#/settings');
  await expect(second.getByTestId('settings-profile')).toContainText(user.account);
  const before = await storageOf(page);
  // Both tabs' refresh calls are held until both were sent, so both carry the same refresh token.
  const held: (() => void)[] = [];
  const sent: string[] = [];
  await context.route('**/api/user/refresh/', async (route) => {
    sent.push((route.request().postDataJSON() as { refresh_token: string }).refresh_token);
    if (held.length < 2) {
      await new Promise<void>((release) => {
        held.push(release);
        if (held.length === 2) for (const go of held) go();
      });
    }
    await route.continue();
  });
  await page.evaluate(() => localStorage.setItem('token', 'expired.or.forged'));
  await Promise.all([page.reload(), second.reload()]);
  // The settings page shows the cached profile at once, before either refresh is answered: wait
  // until both tabs have sent theirs (on a busy machine the second reload comes a while later).
  await expect.poll(() => sent.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  for (const tab of [page, second]) {
    await expect(tab.getByTestId('settings-profile')).toContainText(user.account);
    await expect(tab).toHaveURL(/#\/settings$/);
  }
  expect(sent.slice(0, 2)).toEqual([before.refreshToken, before.refreshToken]);
  await expect.poll(async () => (await storageOf(page)).token).not.toBe('expired.or.forged');
  // The family lives on: the refresh token the tabs kept still renews.
  const kept = (await storageOf(second)).refreshToken;
  expect(kept).not.toBe(before.refreshToken);
  const refresh = await request.post('/api/user/refresh/', { data: { refresh_token: kept } });
  expect(refresh.status()).toBe(200);
  for (const tab of [page, second]) await expect(tab).toHaveURL(/#\/settings$/);
});

test('a refresh whose answer is lost keeps the person signed in, and the next attempt renews the session', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'DESIGNER');
  await signInQuickly(page, request, user, '/#/settings');
  const before = await storageOf(page);
  // The server rotates the refresh token, then the connection drops before its answer arrives.
  const rotated: number[] = [];
  await page.route('**/api/user/refresh/', async (route) => {
    rotated.push((await route.fetch()).status());
    await route.abort('connectionreset');
  });
  await page.evaluate(() => localStorage.setItem('token', 'expired.or.forged'));
  const lost = page.waitForEvent('requestfailed', (r) => r.url().includes('/api/user/refresh/'));
  await page.reload();
  await lost;
  // The settings page keeps showing the cached profile; nothing on it marks the failed call, so
  // the page gets a moment in which signing out would have happened (at once, when it did).
  await page.waitForTimeout(1000);
  await expect(page.getByTestId('settings-profile')).toContainText(user.account);
  expect(rotated).toEqual([200]);
  await expect(page).toHaveURL(/#\/settings$/);
  expect((await storageOf(page)).refreshToken).toBe(before.refreshToken);
  await expect(page.getByText('Login expired, please log in again')).toBeHidden();
  // The connection is back: the same, already rotated refresh token is taken within the grace period.
  await page.unroute('**/api/user/refresh/');
  await page.reload();
  await expect(page.getByTestId('settings-profile')).toContainText(user.account);
  await expect.poll(async () => (await storageOf(page)).token).not.toBe('expired.or.forged');
  expect((await storageOf(page)).refreshToken).not.toBe(before.refreshToken);
  await expect(page).toHaveURL(/#\/settings$/);
});
