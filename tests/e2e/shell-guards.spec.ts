import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { seriousViolations } from './accessibility';
import { createUser, signInQuickly } from './shell-helpers';

// Spec §2 route table: visitors only see /login, the shell needs a session, unknown paths go to /.
test.describe('route guards', () => {
  test('a visitor is sent to /login from the shell, its pages and unknown paths', async ({ page }) => {
    for (const path of ['/#/', '/#/settings', '/#/history', '/#/no-such-page']) {
      await page.goto(path);
      await expect(page).toHaveURL(/#\/login$/);
      await expect(page.getByTestId('login-page')).toBeVisible();
    }
  });

  test('a signed-in user is sent from /login to / and from unknown paths to /', async ({ page, request }) => {
    const user = await createUser(request, 'ADMIN');
    await signInQuickly(page, request, user, '/#/login');
    await expect(page).toHaveURL(/#\/$/);
    await expect(page.getByTestId('home-greeting')).toBeVisible();
    await page.goto('/#/does/not/exist');
    await expect(page).toHaveURL(/#\/$/);
    await page.goto('/#/gemini-banana');
    await expect(page.getByTestId('page-gemini-banana')).toBeVisible();
  });

  test('a page outside the role goes home; pages inside it open', async ({ page, request }) => {
    const designer = await createUser(request, 'DESIGNER');
    await signInQuickly(page, request, designer, '/#/history');
    await expect(page).toHaveURL(/#\/$/);
    await page.goto('/#/image-processing');
    await expect(page).toHaveURL(/#\/image-processing$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Image enhancement' })).toBeVisible();
  });
});

test.describe('start-up', () => {
  test.use({ locale: 'vi-VN' });

  test('a full-screen spinner with loading text in the detected language shows until the strings arrive', async ({
    page,
  }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/vi-VN-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/#/login');
    const boot = page.getByTestId('boot-spinner');
    await expect(boot).toBeVisible();
    // innerText: only the language shown counts (the others are display: none).
    expect((await boot.innerText()).trim()).toBe('Đang tải…');
    await expect(boot.locator('.spinner')).toBeVisible();
    await expect(page.getByTestId('login-page')).toHaveCount(0);
    release();
    await expect(page.getByTestId('login-page')).toBeVisible();
    await expect(boot).toHaveCount(0);
  });

  test("a visitor sees the sign-in screen's brand side in their language before the scripts run, where the screen then keeps it", async ({
    browser,
    baseURL,
  }) => {
    const tagline = (JSON.parse(readFileSync('src/i18n/locales/vi-VN.json', 'utf8')) as { auth: { tagline: string } }).auth.tagline;
    // Tablet portrait (the brand band above the form) and landscape (beside it); a new context for
    // each, so no service worker from the first answers the second's requests.
    for (const viewport of [
      { width: 768, height: 1024 },
      { width: 1024, height: 768 },
    ]) {
      const context = await browser.newContext({ baseURL, viewport, locale: 'vi-VN', hasTouch: true });
      const page = await context.newPage();
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      // Not until "load": that waits for the entry script held here.
      await page.goto('/#/login', { waitUntil: 'commit' });
      await expect(page.getByTestId('boot-spinner')).toBeVisible();
      // Five languages in the document, the reader's alone shown.
      await expect(page.locator('.boot-brand .login-brand__tagline')).toHaveCount(5);
      await expect(page.locator('.boot-brand .login-brand__tagline:visible')).toHaveText([tagline]);
      expect(await seriousViolations(page)).toEqual([]);
      const before = await page.locator('.boot-brand[lang="vi-VN"] .login-brand__tagline').boundingBox();
      release();
      await expect(page.getByTestId('login-page')).toBeVisible();
      await expect(page.locator('.boot-brand')).toHaveCount(0);
      const after = page.getByTestId('login-page').locator('.login-brand__tagline');
      await expect(after).toHaveText(tagline);
      // No entrance animation over a screen already in place: the tagline stays where it was painted.
      expect(await after.boundingBox()).toEqual(before);
      await context.close();
    }
  });

  test('a stored language choice wins over the browser for the spinner text too', async ({ page }) => {
    await page.goto('/config.json');
    await page.evaluate(() => localStorage.setItem('language', 'th-TH'));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/th-TH-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/#/login');
    await expect(page.getByTestId('boot-spinner')).toBeVisible();
    expect((await page.getByTestId('boot-spinner').innerText()).trim()).toBe('กำลังโหลด…');
    release();
    await expect(page.getByTestId('login-page')).toBeVisible();
  });
});
