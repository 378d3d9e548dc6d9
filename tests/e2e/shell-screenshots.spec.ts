import { expect, test } from '@playwright/test';
import { createUser, screenshot, signInQuickly, VIEWPORTS, type TestUser } from './shell-helpers';

// Screens for a designer's eye at the four sizes the product is used at (test-results/screenshots).
let admin: TestUser;

test.beforeAll(async ({ request }) => {
  admin = await createUser(request, 'ADMIN');
});

for (const viewport of VIEWPORTS) {
  test(`screens at ${viewport.name}`, async ({ page, request }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/#/login');
    await expect(page.getByTestId('login-submit')).toBeVisible();
    await screenshot(page, `${viewport.name}-login`);

    await page.getByTestId('login-method').getByRole('radio', { name: 'Phone' }).click();
    await page.getByTestId('login-submit').click();
    await page.getByTestId('help-panel').locator('summary').click();
    await screenshot(page, `${viewport.name}-login-phone-help`);

    await signInQuickly(page, request, admin);
    await expect(page.getByTestId('home-greeting')).toBeVisible();
    await screenshot(page, `${viewport.name}-home`);

    await page.goto('/#/settings');
    await expect(page.getByTestId('settings-profile')).toContainText(admin.account);
    await screenshot(page, `${viewport.name}-settings`);

    await page.goto('/#/');
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByTestId('home-greeting')).toBeVisible();
    await screenshot(page, `${viewport.name}-home-dark`);
    await page.evaluate(() => localStorage.removeItem('theme'));
  });
}
