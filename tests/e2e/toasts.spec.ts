import { expect, test, type Page } from '@playwright/test';

// Spec §2/§9 toasts: 4000 ms, paused while the tab is hidden (sonner 2 listens to
// visibilitychange itself). The page clock is driven by the test so the 4 s are exact.

async function setTabHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (h ? 'hidden' : 'visible'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

test('a toast waits while the tab is hidden and closes 4 s after it is seen again', async ({ page }) => {
  await page.clock.install();
  await page.goto('/#/login');
  await page.getByTestId('login-mode').getByRole('radio', { name: 'SmartLink' }).click();
  await page.getByTestId('smartlink-username').fill('nobody-here');
  await page.getByTestId('smartlink-password').fill('not-the-password');
  await page.getByTestId('smartlink-submit').click();
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'SmartLink login failed' });
  await expect(toast).toBeVisible();

  await setTabHidden(page, true);
  await page.clock.runFor(20_000);
  await expect(toast).toBeVisible();

  await setTabHidden(page, false);
  await page.clock.runFor(3_000);
  await expect(toast).toBeVisible();
  await page.clock.runFor(2_000);
  await expect(toast).toHaveCount(0);
});

test('without a hidden tab the same toast closes after 4 s', async ({ page }) => {
  await page.clock.install();
  await page.goto('/#/login');
  await page.getByTestId('login-mode').getByRole('radio', { name: 'SmartLink' }).click();
  await page.getByTestId('smartlink-username').fill('nobody-here');
  await page.getByTestId('smartlink-password').fill('not-the-password');
  await page.getByTestId('smartlink-submit').click();
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'SmartLink login failed' });
  await expect(toast).toBeVisible();
  await page.clock.runFor(5_000);
  await expect(toast).toHaveCount(0);
});
