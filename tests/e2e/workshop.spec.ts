// The Gemini-Banana workshop end to end against the real companion server: text, image and mixed
// items to completion with the built-in engine (results with confidence, time and model; the
// difference view; the compare slider), the cloud enhancer played by a local server speaking
// Gemini's generateContent and streamGenerateContent (a safety block, then success on retry; the
// text shown as it is written, a cut stream written again and never shown twice; a slow answer to
// cancel and to reload over), the device queue kept through a reload and wiped on logout, an item
// kept in the composer when the device is full, an item whose answer was lost made once, results readable
// without the server, keyboard use, both tablet viewports, and a DESIGNER refused by the server
// and the menu. Its own server (GENERATION_ENHANCE=gemini beside the built-in engine).
import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './accessibility';
import { makePng } from './image-processing-helpers';
import { apiCall, openSignedIn, signInApi, tracesOf, waitForPersistedCache, type Grant } from './offline-helpers';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';
import {
  ENHANCED,
  GEMINI_IMAGE_MODEL,
  GEMINI_TEXT_MODEL,
  STREAM_PIECE_CHARS,
  startFakeGemini,
  thirdCall,
  type FakeGemini,
  type ThirdItem,
} from './workshop-helpers';

const PORT = Number(process.env.WORKSHOP_E2E_PORT ?? 8161);

test.describe.configure({ mode: 'serial' });
// page.route must see the app's calls: no service worker between them in this file.
test.use({ serviceWorkers: 'block', viewport: { width: 1024, height: 768 } });
test.setTimeout(90_000);

let server: RunningServer;
let gemini: FakeGemini;
let admin: Grant;

test.beforeAll(async () => {
  gemini = await startFakeGemini();
  server = await startServer(PORT, {
    GENERATION_ENHANCE: 'gemini',
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: gemini.url,
    GEMINI_TEXT_MODEL,
    GEMINI_IMAGE_MODEL,
    LOGIN_MAX_ATTEMPTS: '1000',
    ...(process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {}),
  });
  admin = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
});

test.afterAll(async () => {
  await server?.stop();
  await gemini?.close();
});

const newest = (page: Page) => page.getByTestId('workshop-item').first();

async function openWorkshop(page: Page, model: 'local' | 'gemini'): Promise<void> {
  await openSignedIn(page, server.url, admin, '#/gemini-banana');
  await expect(page.getByTestId('page-gemini-banana')).toBeVisible();
  await page.getByTestId('workshop-model').selectOption(model);
}

async function chooseType(page: Page, label: 'Text' | 'Image' | 'Text + images'): Promise<void> {
  await page.getByTestId('workshop-type').getByRole('radio', { name: label, exact: true }).click();
}

const png = (seed: number, size = 48) => ({ name: `fabric-${seed}.png`, mimeType: 'image/png', buffer: makePng(size, size, seed) });

test('text, image and mixed items run to completion with the built-in engine; keyboard, accessibility and both tablet viewports', async ({
  page,
}) => {
  await openWorkshop(page, 'local');
  await expect(page.getByTestId('workshop-local-preview')).toContainText('local preview');
  await expect(page.getByTestId('workshop-model').locator('option:checked')).toHaveText(/local preview/i);

  // A text item by keyboard only: focus the field, type, Tab to "Add to queue", Enter.
  await page.getByTestId('workshop-text').focus();
  await page.keyboard.type('ＡＢＣ fabric ,100%polyester ,weight 200 g/m2');
  for (let i = 0; i < 6; i += 1) {
    if ((await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)) === 'workshop-add') break;
    await page.keyboard.press('Tab');
  }
  // The item is followed through its event stream, as a cloud model's is.
  const streamOpened = page.waitForRequest((r) => /\/third-api\/workshop\/items\/\d+\/events$/.test(r.url()));
  await page.keyboard.press('Enter');
  await streamOpened;
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  const textItem = newest(page);
  await expect(textItem.getByTestId('workshop-result-text')).toContainText('ABC fabric');
  await expect(textItem.getByTestId('workshop-confidence')).toHaveText(/^\d+%$/);
  await expect(textItem.getByTestId('workshop-time')).toHaveText(/s$/);
  await expect(textItem.getByTestId('workshop-model-used')).toContainText('local preview');
  await textItem.getByTestId('workshop-toggle-diff').press('Enter');
  await expect(textItem.getByTestId('workshop-diff').locator('del').first()).toBeVisible();
  await expect(textItem.getByTestId('workshop-diff').locator('ins').first()).toBeVisible();

  // An image item: picked from a file input.
  await chooseType(page, 'Image');
  await page.getByTestId('workshop-file-input').setInputFiles([png(3)]);
  await expect(page.getByTestId('workshop-chosen-image')).toHaveCount(1);
  await page.getByTestId('workshop-add').click();
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(newest(page).getByTestId('workshop-result-image')).toHaveCount(1);
  await expect(newest(page).locator('.compare-slider, [class*="compare"]').first()).toBeVisible();
  await expect(newest(page).getByTestId('workshop-confidence')).toHaveText(/^\d+%$/);

  // A mixed item: text plus two images; a wrong file is refused with its reason.
  await chooseType(page, 'Text + images');
  await page.getByTestId('workshop-text').fill('Crimson floral voile,light and airy');
  await page.getByTestId('workshop-file-input').setInputFiles([
    png(5),
    png(6),
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') },
  ]);
  await expect(page.getByTestId('workshop-rejected')).toContainText('notes.txt');
  await page.getByTestId('workshop-add').click();
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(newest(page).getByTestId('workshop-result-text')).toContainText('Crimson floral voile');
  await expect(newest(page).getByTestId('workshop-result-image')).toHaveCount(2);

  // The viewer opens on an enhanced image and closes with Escape.
  await newest(page).getByTestId('workshop-open-viewer').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Sent on to the video workflow through the documented hand-off.
  await textItem.getByTestId('workshop-send-text-to-video').click();
  const handoff = await page.evaluate(() => sessionStorage.getItem('loom.handoff.video'));
  expect(JSON.parse(handoff ?? '{}')).toMatchObject({ version: 1, kind: 'description' });

  // Toasts fade in and out (axe reads their contrast mid-animation): checked once they are gone.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  expect(await seriousViolations(page)).toEqual([]);
  for (const viewport of [
    { width: 1024, height: 768 },
    { width: 768, height: 1024 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(page.getByTestId('workshop-add')).toBeVisible();
    await expect(page.getByTestId('workshop-queue')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow at ${viewport.width}x${viewport.height}`).toBeLessThanOrEqual(0);
    const shots = process.env.WORKSHOP_SCREENSHOTS;
    if (shots) await page.screenshot({ path: `${shots}/workshop-${viewport.width}x${viewport.height}.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  }
});

test('images come in by paste and by drop as well as by the picker', async ({ page }) => {
  await openWorkshop(page, 'local');
  await chooseType(page, 'Image');
  const bytes = [...makePng(24, 24, 9)];
  // Pasted anywhere on the page (a screenshot, a copied photo).
  await page.evaluate((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'pasted.png', { type: 'image/png' }));
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  await expect(page.getByTestId('workshop-chosen-image')).toHaveCount(1);
  // Dropped on the drop zone.
  const transfer = await page.evaluateHandle((data) => {
    const t = new DataTransfer();
    t.items.add(new File([new Uint8Array(data)], 'dropped.png', { type: 'image/png' }));
    return t;
  }, bytes);
  await page.getByTestId('workshop-drop').dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByTestId('workshop-chosen-image')).toHaveCount(2);
  await expect(page.getByRole('img', { name: 'dropped.png' })).toBeVisible();
  await page.getByTestId('workshop-add').click();
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(newest(page).getByTestId('workshop-result-image')).toHaveCount(2);
});

test('provider refusals (safety block, quota) are shown in the user language and a retry completes the item, also when its answer is lost', async ({ page }) => {
  await openWorkshop(page, 'gemini');
  gemini.script = ['safety', 'quota'];
  await page.getByTestId('workshop-text').fill('Summer voile for the fair');
  await page.getByTestId('workshop-add').click();
  await expect(newest(page)).toHaveAttribute('data-status', 'error', { timeout: 20_000 });
  await expect(newest(page).getByTestId('workshop-item-error')).toContainText(/safety filter/);
  await newest(page).getByTestId('workshop-retry').click();
  await expect(newest(page)).toHaveAttribute('data-status', 'error', { timeout: 20_000 });
  await expect(newest(page).getByTestId('workshop-item-error')).toContainText(/quota or balance/);
  // This retry's answer is lost on the way back: the resend finds the item running, no error.
  let retries = 0;
  const asked = gemini.requests;
  await page.route('**/third-api/workshop/items/*/retry', async (route) => {
    retries += 1;
    if (retries > 1) return route.fallback();
    await route.fetch();
    await route.abort('connectionreset');
  });
  await newest(page).getByTestId('workshop-retry').click();
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  await expect.poll(() => retries).toBe(2);
  await expect(newest(page)).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  // The item ran once for the one retry asked for.
  expect(gemini.requests).toBe(asked + 1);
  await page.unroute('**/third-api/workshop/items/*/retry');
  await expect(newest(page).getByTestId('workshop-result-text')).toHaveText(ENHANCED.text);
  await expect(newest(page).getByTestId('workshop-confidence')).toHaveText('82%');
  await expect(newest(page).getByTestId('workshop-model-used')).toContainText(GEMINI_TEXT_MODEL);

  // A file that claims to be a PNG but is not passes the device's check; the server refuses it by
  // its bytes, and the item says so (no retry: the input must change).
  await chooseType(page, 'Image');
  await page.getByTestId('workshop-file-input').setInputFiles([{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a png at all') }]);
  await page.getByTestId('workshop-add').click();
  await expect(page.getByTestId('workshop-entry-error')).toContainText(/Unsupported image type \(fake\.png\)/);
  await expect(page.getByTestId('workshop-entry').getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.getByTestId('workshop-remove').click();
  await expect(page.getByTestId('workshop-entry')).toHaveCount(0);
});

test('the text shows as the model writes it; a stream cut mid-text is written again from its start, never shown twice', async ({ page }) => {
  await openWorkshop(page, 'gemini');
  // Every text the page shows while the item runs, as it changes.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { streamedTexts: string[] }).streamedTexts = seen;
    new MutationObserver(() => {
      const shown = document.querySelector('[data-testid="workshop-streaming-text"]')?.textContent ?? '';
      if (shown && seen.at(-1) !== shown) seen.push(shown);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const before = gemini.requests;
  // The first stream is cut after a few pieces; the adapter asks again and the second is written out.
  gemini.script = [{ paceMs: 250, cutAfter: 8 }, { paceMs: 250 }];
  await page.getByTestId('workshop-text').fill('rose voile, cotton, light');
  await page.getByTestId('workshop-add').click();

  const item = newest(page);
  const writing = item.getByTestId('workshop-streaming-text');
  await expect(writing).toContainText('Rose voile', { timeout: 20_000 });
  await expect(item).toHaveAttribute('data-status', 'processing');
  await expect(item.getByTestId('workshop-live')).toContainText('Being written…');
  await expect(item).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(item.getByTestId('workshop-result-text')).toHaveText(ENHANCED.text);
  await expect(item.getByTestId('workshop-streaming-text')).toHaveCount(0);

  const texts = await page.evaluate(() => (window as unknown as { streamedTexts: string[] }).streamedTexts);
  // It grew piece by piece, and at no moment held more than the text once.
  expect(new Set(texts.map((t) => t.length)).size).toBeGreaterThanOrEqual(3);
  for (const text of texts) expect(ENHANCED.text.startsWith(text), `shown: ${text}`).toBe(true);
  // The cut start, then the reset to a shorter text: the second attempt was written from its start.
  const longestBeforeCut = Math.max(...texts.slice(0, texts.findIndex((t, i) => i > 0 && t.length < texts[i - 1]!.length)).map((t) => t.length));
  expect(longestBeforeCut).toBeLessThan(ENHANCED.text.length);
  expect(longestBeforeCut).toBeLessThanOrEqual(8 * STREAM_PIECE_CHARS);
  // Two text calls for the item: the cut one and the one written out.
  expect(gemini.requests - before).toBe(2);
});

test('two items run at a time, the third waits on the device; a running item is cancelled on the server and the waiting one goes', async ({
  page,
}) => {
  await openWorkshop(page, 'gemini');
  gemini.script = [{ delayMs: 30_000 }, { delayMs: 30_000 }, 'ok'];
  for (const text of ['Slow one', 'Slow two', 'Third in line']) {
    await page.getByTestId('workshop-text').fill(text);
    await page.getByTestId('workshop-add').click();
  }
  const running = page.locator('[data-testid="workshop-item"][data-status="processing"]');
  await expect(running).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('workshop-entry')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('workshop-entry')).toContainText('Waiting in queue (#1)');

  const slowTwo = page.locator('[data-testid="workshop-item"]', { hasText: 'Slow two' });
  await slowTwo.getByTestId('workshop-cancel').click();
  await expect(slowTwo).toHaveAttribute('data-status', 'cancelled', { timeout: 20_000 });
  const id = Number(await slowTwo.getAttribute('data-item-id'));
  const detail = await thirdCall(server.url, 'GET', `/workshop/items/${id}`, admin.token);
  expect((detail.data as ThirdItem).error?.code).toBe('cancelled');
  await expect(slowTwo.getByTestId('workshop-retry')).toBeVisible();

  // The freed slot takes the waiting item.
  const third = page.locator('[data-testid="workshop-item"]', { hasText: 'Third in line' });
  await expect(third).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  await expect(page.getByTestId('workshop-entry')).toHaveCount(0);
  const slowOne = page.locator('[data-testid="workshop-item"]', { hasText: 'Slow one' });
  await slowOne.getByTestId('workshop-cancel').click();
  await expect(slowOne).toHaveAttribute('data-status', 'cancelled', { timeout: 20_000 });
});

test('a reload mid-run finds the item still running, then finished; a waiting item survives the reload', async ({ page }) => {
  await openWorkshop(page, 'gemini');
  gemini.script = [{ delayMs: 5_000 }];
  await page.getByTestId('workshop-text').fill('Reload while this runs');
  await page.getByTestId('workshop-add').click();
  await expect(newest(page)).toHaveAttribute('data-status', 'processing', { timeout: 20_000 });
  await page.reload();
  await expect(newest(page)).toHaveAttribute('data-status', /processing|completed/);
  await expect(newest(page).locator('.ws-item__text')).toHaveText('Reload while this runs');
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });

  // An item that cannot be sent yet waits on the device, through a reload, and goes once it can.
  await page.route('**/third-api/workshop/items', (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await page.getByTestId('workshop-text').fill('Kept on the device');
  await page.getByTestId('workshop-add').click();
  await expect(page.getByTestId('workshop-entry')).toHaveCount(1);
  // The shared retry policy tries again by itself and says when.
  await expect(page.getByTestId('workshop-entry-retrying')).toContainText(/retrying/);
  await page.reload();
  await expect(page.getByTestId('workshop-entry')).toContainText('Kept on the device');
  await page.unroute('**/third-api/workshop/items');
  await expect(page.getByTestId('workshop-entry')).toHaveCount(0, { timeout: 30_000 });
  await expect(newest(page).locator('.ws-item__text')).toHaveText('Kept on the device');
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
});

test('an answer lost on the way back, then a reload before the resend: the item goes again under the same key and the server makes it once', async ({ page }) => {
  await openWorkshop(page, 'local');
  const keys: string[] = [];
  await page.route('**/third-api/workshop/items', async (route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.fallback();
    keys.push(request.headers()['idempotency-key'] ?? '');
    if (keys.length > 1) return route.fallback();
    // The server takes the first attempt and makes the item; its answer never reaches the page.
    await route.fetch();
    await route.abort('connectionreset');
  });
  const text = `Made once ${Date.now()}`;
  await chooseType(page, 'Text + images');
  await page.getByTestId('workshop-text').fill(text);
  await page.getByTestId('workshop-file-input').setInputFiles([png(41)]);
  await page.getByTestId('workshop-add').click();
  await expect(page.getByTestId('workshop-entry')).toHaveCount(0, { timeout: 30_000 });
  const shown = page.locator('[data-testid="workshop-item"]', { hasText: text });
  await expect(shown).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  await expect(shown).toHaveCount(1);
  const list = await thirdCall(server.url, 'GET', '/workshop/items?limit=50', admin.token);
  const made = (list.data as { items: { text: string | null }[] }).items.filter((item) => item.text === text);
  expect(made).toHaveLength(1);
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
  expect(keys[1]).toBe(keys[0]);
  await page.unroute('**/third-api/workshop/items');

  // The answer lost again, and the page reloaded before the resend: the item kept on the device
  // goes again under its key, and the server still holds one.
  const afterReload = `Made once across a reload ${Date.now()}`;
  const reloadKeys: string[] = [];
  let open = false;
  await page.route('**/third-api/workshop/items', async (route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.fallback();
    reloadKeys.push(request.headers()['idempotency-key'] ?? '');
    if (open) return route.fallback();
    if (reloadKeys.length === 1) await route.fetch();
    await route.abort('connectionreset');
  });
  await chooseType(page, 'Text');
  await page.getByTestId('workshop-text').fill(afterReload);
  await page.getByTestId('workshop-add').click();
  await expect.poll(() => reloadKeys.length).toBeGreaterThanOrEqual(1);
  open = true;
  await page.reload();
  const kept = page.locator('[data-testid="workshop-item"]', { hasText: afterReload });
  await expect(kept).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(page.getByTestId('workshop-entry')).toHaveCount(0);
  const again = await thirdCall(server.url, 'GET', '/workshop/items?limit=50', admin.token);
  expect((again.data as { items: { text: string | null }[] }).items.filter((item) => item.text === afterReload)).toHaveLength(1);
  expect(reloadKeys.length).toBeGreaterThanOrEqual(2);
  expect(new Set(reloadKeys).size).toBe(1);
  await page.unroute('**/third-api/workshop/items');
});

test('on a full device an added item stays in the composer with the reason, nothing is sent, and it goes once there is room', async ({
  page,
}) => {
  // The device's storage refuses the workshop line's writes while the flag is up, as a full disk does.
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'queue' && (window as { diskFull?: boolean }).diskFull)
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/workshop/items')) posts.push(request.url());
  });
  await openWorkshop(page, 'local');
  await page.evaluate(() => ((window as { diskFull?: boolean }).diskFull = true));
  await page.getByTestId('workshop-text').fill('Kept in the composer');
  await page.getByTestId('workshop-add').click();
  await expect(page.getByTestId('workshop-composer').getByRole('alert')).toHaveText(
    'This device has no room left to keep the item. Free some space in Settings and add it again.',
  );
  await expect(page.getByTestId('workshop-text')).toHaveValue('Kept in the composer');
  await expect(page.getByTestId('workshop-entry')).toHaveCount(0);
  expect(posts).toEqual([]);

  await page.evaluate(() => ((window as { diskFull?: boolean }).diskFull = false));
  await page.getByTestId('workshop-add').click();
  await expect(page.getByTestId('workshop-text')).toHaveValue('');
  await expect(newest(page).locator('.ws-item__text')).toHaveText('Kept in the composer');
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  expect(posts).toHaveLength(1);
});

test('results stay readable without the server, and logout wipes the device queue', async ({ page }) => {
  await openWorkshop(page, 'local');
  await page.getByTestId('workshop-text').fill('Readable offline later');
  await page.getByTestId('workshop-add').click();
  await expect(newest(page)).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  await waitForPersistedCache(page, `id:${admin.user.id}`);
  await page.waitForTimeout(1500);

  await page.route('**/third-api/**', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByTestId('workshop-result-text').first()).toBeVisible();
  // The settings are remembered, and the models come from the device too.
  await expect(page.getByTestId('workshop-model')).toHaveValue('local');
  await expect(page.getByText('Readable offline later').first()).toBeVisible();

  // Still unreachable: a new item waits on the device; logging out leaves no trace of it.
  await page.getByTestId('workshop-text').fill('Unsent workshop text of the logged-out user');
  await page.getByTestId('workshop-add').click();
  await expect(page.getByTestId('workshop-entry')).toHaveCount(1);
  await expect
    .poll(async () => (await tracesOf(page, ['Unsent workshop text of the logged-out user'])).traces.length)
    .toBeGreaterThan(0);
  await page.unroute('**/third-api/**');
  await page.route('**/third-api/workshop/items', (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await page.goto(`${server.url}/#/settings`);
  await page.getByTestId('logout').click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /log out|sign out/i })
    .click();
  await expect(page.getByTestId('login-page')).toBeVisible();
  const after = await tracesOf(page, ['Unsent workshop text of the logged-out user', 'Readable offline later']);
  expect(after.traces).toEqual([]);
});

test('a DESIGNER is refused by the server and sees no workshop in the menu', async ({ page }) => {
  // The test before logged the administrator out: a fresh session.
  admin = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  const account = `e2e-designer-ws-${Date.now().toString(36)}`;
  const created = await apiCall(server.url, 'POST', '/users/', admin.token, {
    account,
    password: 'designer-pass',
    user_level: 'DESIGNER',
    display_name: 'Workshop Designer',
  });
  expect(created.status).toBeLessThan(300);
  const designer = await signInApi(server.url, account, 'designer-pass');

  const models = await thirdCall(server.url, 'GET', '/workshop/models', designer.token);
  expect(models.status).toBe(403);
  const form = new FormData();
  form.append('type', 'text');
  form.append('text', 'not allowed');
  const create = await thirdCall(server.url, 'POST', '/workshop/items', designer.token, form);
  expect(create.status).toBe(403);
  expect((await thirdCall(server.url, 'GET', '/workshop/items', designer.token)).status).toBe(403);

  await openSignedIn(page, server.url, designer, '#/');
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect(page.getByTestId('sidebar').locator('a[href$="gemini-banana"]')).toHaveCount(0);
  await page.goto(`${server.url}/#/gemini-banana`);
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.getByTestId('page-gemini-banana')).toHaveCount(0);
});

// One small item of each type: since image items go through Real-CUGAN (about 70 s per 1 MP input
// on this loaded 2-core machine), three rounds with 1600×1200 images ran past the test's time limit
// every time, and stopping the server then aborted it mid-image. What a full-size item costs is
// `npm run bench:workshop-upscale`'s figure.
test('timings of each item type with the built-in engine (for the notes)', async () => {
  admin = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  type Run = { processing_ms: number; wall_ms: number; confidence: number | null; model: string | null };
  const runs: Record<string, Run[]> = {};
  const config = JSON.stringify({ model: 'local', creativity: 0.5, precision: 0.5, style: 'natural' });
  const cases = [
    { type: 'text', size: null },
    { type: 'image', size: [96, 96] },
    { type: 'mixed', size: [96, 96] },
  ] as const;
  for (let round = 0; round < 1; round += 1) {
    for (const c of cases) {
      const form = new FormData();
      form.append('type', c.type);
      if (c.type !== 'image') form.append('text', 'ＡＢＣ fabric ,100%polyester ,weight 200 g/m2 — 春夏 voile面料');
      if (c.size) form.append('images[]', new Blob([new Uint8Array(makePng(c.size[0], c.size[1], round + 1))], { type: 'image/png' }), 'fabric.png');
      form.append('config', config);
      const started = Date.now();
      const created = await thirdCall(server.url, 'POST', '/workshop/items', admin.token, form);
      expect(created.status).toBe(201);
      const id = (created.data as ThirdItem).id;
      let item = created.data as ThirdItem;
      while (item.status === 'pending' || item.status === 'processing') {
        await new Promise((r) => setTimeout(r, 50));
        item = (await thirdCall(server.url, 'GET', `/workshop/items/${id}`, admin.token)).data as ThirdItem;
      }
      expect(item.status).toBe('completed');
      const key = c.size ? `${c.type} ${c.size[0]}x${c.size[1]}` : c.type;
      (runs[key] ??= []).push({
        processing_ms: item.result?.processing_ms ?? -1,
        wall_ms: Date.now() - started,
        confidence: item.result?.confidence ?? null,
        model: item.result?.model ?? null,
      });
    }
  }
  const out = process.env.WORKSHOP_TIMINGS_FILE;
  if (out) writeFileSync(out, JSON.stringify(runs, null, 2));
  console.log('workshop timings (built-in engine):', JSON.stringify(runs));
});
