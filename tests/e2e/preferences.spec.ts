import { expect, test } from '@playwright/test';
import { createUser, signInQuickly, storageOf } from './shell-helpers';

test('language: detected from the browser, switched live, kept across a reload', async ({ browser, request }) => {
  const context = await browser.newContext({ locale: 'vi-VN' });
  const page = await context.newPage();
  await page.goto('/#/login');
  await expect(page.getByRole('heading', { name: 'Đăng nhập' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'vi-VN');
  const user = await createUser(request, 'GENERAL');
  await signInQuickly(page, request, user, '/#/settings');
  await page.getByTestId('language-select').selectOption('th-TH');
  await expect(page.getByRole('heading', { level: 1, name: 'การตั้งค่า' })).toBeVisible();
  expect((await storageOf(page)).language).toBe('th-TH');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'การตั้งค่า' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'th-TH');
  // Server messages follow the interface language (Accept-Language).
  await page.getByTestId('password-oldPassword').fill('wrong-old-password');
  await page.getByTestId('password-newPassword').fill('new-password-1');
  await page.getByTestId('password-confirmPassword').fill('new-password-1');
  await page.getByRole('button', { name: 'เปลี่ยนรหัสผ่าน' }).click();
  await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();
  await expect(page.locator('[data-sonner-toast]').first()).toContainText(/[\u0E00-\u0E7F]/);
  await context.close();
});

test('theme: dark applied before the first paint and kept; follow system follows it', async ({ page, request }) => {
  const user = await createUser(request, 'DESIGNER');
  await signInQuickly(page, request, user, '/#/settings');
  await page.getByTestId('theme-switch').getByRole('radio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // The saved theme is on <html> before any module script runs (no flash of the light theme).
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') (window as unknown as { earlyTheme: string | null }).earlyTheme = document.documentElement.getAttribute('data-theme');
    });
  });
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { earlyTheme: string | null }).earlyTheme)).toBe('dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(15, 17, 23)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('theme-switch').getByRole('radio', { name: 'Follow system' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect((await storageOf(page)).theme).toBeUndefined();
});
