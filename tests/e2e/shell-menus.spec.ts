import { expect, test } from '@playwright/test';
import { createUser, signInQuickly, type Level } from './shell-helpers';

// Spec §2 main layout and §6: each role sees exactly its entries; the active entry is the exact path.
const MENUS: Record<Level, string[]> = {
  ADMIN: [
    'Home',
    'Image processing',
    'Video generation',
    'Collections',
    'Gemini-Banana',
    'Prompt management',
    'History',
    'Settings',
  ],
  DESIGNER: ['Home', 'Image processing', 'Settings'],
  GENERAL: ['Home', 'Video generation', 'Collections', 'History', 'Settings'],
};

for (const level of Object.keys(MENUS) as Level[]) {
  test(`${level} sees exactly their sidebar entries and home tool cards`, async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const user = await createUser(request, level);
    await signInQuickly(page, request, user);
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar.getByRole('link')).toHaveText(MENUS[level], { useInnerText: true });
    await expect(sidebar.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    // Home lists the role's tools: its menu without home and settings.
    await expect(page.getByTestId('home-tools').getByRole('link')).toHaveCount(MENUS[level].length - 2);
    await sidebar.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/#\/settings$/);
    await expect(sidebar.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    await expect(sidebar.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
  });
}

test('without a known user only home and settings show', async ({ page, request }) => {
  const user = await createUser(request, 'ADMIN');
  await signInQuickly(page, request, user);
  // Profile cache lost and the server unreachable for the profile: the menu falls back.
  await page.route('**/api/user/profile', (route) => route.abort());
  await page.evaluate(() => localStorage.removeItem('userInfo'));
  await page.reload();
  await expect(page.getByTestId('sidebar').getByRole('link')).toHaveText(['Home', 'Settings'], {
    useInnerText: true,
  });
});

test('phones get bottom tabs with 44 px targets; extra entries open from More', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await createUser(request, 'ADMIN');
  await signInQuickly(page, request, user);
  const nav = page.getByTestId('bottom-nav');
  await expect(page.getByTestId('sidebar')).toBeHidden();
  await expect(nav.locator('> ul > li')).toHaveCount(5);
  for (const box of await nav
    .locator('.bottom-nav__tab')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()))) {
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
  }
  await nav.getByRole('button', { name: 'More' }).click();
  await nav.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/#\/history$/);
  await expect(nav.getByRole('button', { name: 'More' })).toHaveClass(/is-active/);
});

test('phones in landscape get the bottom tabs, every target 44 px and on screen', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 844, height: 390 });
  const user = await createUser(request, 'ADMIN');
  await signInQuickly(page, request, user);
  const nav = page.getByTestId('bottom-nav');
  await expect(page.getByTestId('sidebar')).toBeHidden();
  await expect(nav).toBeVisible();
  await expect(nav.locator('> ul > li')).toHaveCount(5);
  const targets = [
    ...(await nav
      .locator('.bottom-nav__tab')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))),
  ];
  targets.push(
    ...(await page
      .locator('.top-bar a')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))),
  );
  for (const box of targets) {
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(390);
  }
  // The bars leave most of the short screen to the page.
  const bars = await page.evaluate(() => {
    const height = (selector: string) =>
      document.querySelector(selector)?.getBoundingClientRect().height ?? 0;
    return height('.top-bar') + height('.bottom-nav');
  });
  expect(bars).toBeLessThanOrEqual(110);
  await nav.getByRole('button', { name: 'More' }).click();
  const sheet = page.getByRole('dialog', { name: 'More' });
  // Measured where it comes to rest, not while it slides up.
  await sheet.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
  for (const box of await sheet
    .getByRole('link')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.bottom).toBeLessThanOrEqual(390);
  }
  await sheet.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  await expect(nav.getByRole('button', { name: 'More' })).toHaveClass(/is-active/);
});

test('tablets get a touch rail with 44 px targets', async ({ page, request }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  const user = await createUser(request, 'GENERAL');
  await signInQuickly(page, request, user);
  const links = page.getByTestId('sidebar').getByRole('link');
  await expect(links).toHaveCount(5);
  for (const box of await links.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()))) {
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
  }
});
