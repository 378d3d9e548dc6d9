import { expect, test } from '@playwright/test';

// The pipeline end to end: the server serves the built PWA, the page loads its runtime config,
// and the service worker registers from the same origin.
test('the served PWA opens in Chromium', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page).toHaveTitle(/Loom Studio/);
  const sw = await page.evaluate(async () => {
    const res = await fetch('/sw.js');
    return { status: res.status, type: res.headers.get('content-type') };
  });
  expect(sw.status).toBe(200);
  expect(sw.type).toMatch(/javascript/);
  expect(errors).toEqual([]);
});
