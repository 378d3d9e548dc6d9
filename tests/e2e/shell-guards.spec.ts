import { expect, test } from '@playwright/test';
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
