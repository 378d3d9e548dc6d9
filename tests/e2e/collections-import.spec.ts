// Collections' import in Chromium against the companion server, as a GENERAL user on a tablet
// (768×1024): open Collections from the menu, read a 12-fabric CSV and a folder of swatches made
// here with sharp, see the guessed column mapping, fix a cell in place by keyboard, leave a row
// out, set the settings and Start. Also: the template in the person's language, a sheet the import
// refuses with the reason named, and the page at 1024×768. axe-core: no serious or critical issue.
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { seriousViolations } from './accessibility';
import type { CreateCollection } from '../../shared/collections/collection-types';
import { createUser, signInQuickly } from './shell-helpers';

test.setTimeout(120_000);
// Tablets: touch and a keyboard both.
test.use({ hasTouch: true });

const CODES = Array.from({ length: 12 }, (_, i) => `LS-${String(i + 1).padStart(2, '0')}`);

/** A 12-fabric sheet as a team exports it: English headers with their usual names. */
function fabricSheet(): string {
  const header = 'Article No.,Fabric name,Composition,Weight,Luster,Remarks,Candidates';
  const rows = CODES.map((code, i) => {
    // LS-05's weight is no weight (a problem to fix); LS-12 has no image (a row to leave out).
    const weight = code === 'LS-05' ? 'heavy' : `${120 + i * 10} g/m²`;
    // LS-01 alone overrides the collection's candidates.
    const candidates = code === 'LS-01' ? '2' : '';
    return `${code},Fabric ${i + 1},100% cotton,${weight},soft luster,Fair sample ${i + 1},${candidates}`;
  });
  return `${[header, ...rows].join('\r\n')}\r\n`;
}

/** A folder of swatches: a pattern image per fabric but the last, a model image for the first three, one stray. */
async function swatchFolder(dir: string): Promise<string> {
  const folder = path.join(dir, 'swatches');
  mkdirSync(folder);
  const png = (i: number) =>
    sharp({
      create: { width: 48, height: 48, channels: 3, background: { r: (i * 40) % 256, g: 120, b: 255 - i * 15 } },
    }).png();
  for (const [i, code] of CODES.slice(0, 11).entries()) {
    await png(i).toFile(path.join(folder, `${code}_pattern.png`));
    if (i < 3) await png(i + 20).toFile(path.join(folder, `${code}_model_1.png`));
  }
  await png(99).toFile(path.join(folder, 'stray-photo.png'));
  return folder;
}

/**
 * The season's sheet and swatch folder, written to a new folder and put into the import; the two
 * rows with a problem (LS-05's weight, LS-12's missing image) are left out, so 10 are ready.
 */
async function importTenReady(page: Page, sheetName: string): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-collection-'));
  const sheet = path.join(dir, sheetName);
  writeFileSync(sheet, fabricSheet());
  await page.getByTestId('collection-sheet-input').setInputFiles(sheet);
  await page.getByTestId('collection-folder-input').setInputFiles(await swatchFolder(dir));
  await expect(page.getByTestId('count-ready')).toHaveText('Ready: 10');
  await page.getByTestId('row-exclude-6').click();
  await page.getByTestId('row-exclude-13').click();
}

/** Full-page screenshots for a designer's eye, when COLLECTION_SHOTS names a folder. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.COLLECTION_SHOTS)
    await page.screenshot({ path: `${process.env.COLLECTION_SHOTS}/${name}.png`, fullPage: true });
}

async function openCollections(page: Page): Promise<void> {
  await page.getByTestId('sidebar').getByRole('link', { name: 'Collections' }).click();
  await expect(page).toHaveURL(/#\/collections$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();
}

test('a GENERAL user imports 12 fabrics with their swatches, fixes one, leaves one out and sets up the run', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  const user = await createUser(request, 'GENERAL');
  await signInQuickly(page, request, user);
  await openCollections(page);
  // A new user has none yet (or, on a server without the list call, the list says so with a retry).
  await expect(page.getByTestId('collections-empty').or(page.getByTestId('collections-error'))).toBeVisible({
    timeout: 20_000,
  });
  expect(await seriousViolations(page)).toEqual([]);

  const dir = mkdtempSync(path.join(tmpdir(), 'loom-collection-'));
  const sheet = path.join(dir, 'summer-fabrics.csv');
  writeFileSync(sheet, fabricSheet());
  const folder = await swatchFolder(dir);

  await page.getByTestId('collection-new').click();
  await expect(page).toHaveURL(/new=1/);
  await page.getByTestId('collection-sheet-input').setInputFiles(sheet);
  await page.getByTestId('collection-folder-input').setInputFiles(folder);
  await expect(page.getByTestId('collection-images-name')).toHaveText('Folder with 15 files');

  // The guessed mapping: every header of the sheet found its field.
  const mapping = page.getByTestId('collection-mapping');
  await expect(mapping).toBeVisible();
  for (const [column, field] of ['code', 'fabric_name', 'composition', 'weight', 'luster', 'remarks', 'candidates'].entries())
    await expect(page.getByTestId(`collection-map-${column}`)).toHaveValue(field);
  await expect(page.getByTestId('collection-mapping-problems')).toHaveCount(0);

  // 10 ready; LS-05 (its weight) and LS-12 (no image) blocked; the stray photo matches no row.
  await expect(page.getByTestId('count-ready')).toHaveText('Ready: 10');
  await expect(page.getByTestId('count-blocked')).toHaveText('Need a fix: 2');
  await expect(page.getByTestId('count-unmatched')).toHaveText('Images matching no row: 1');
  const problems = page.getByTestId('collection-problems');
  await expect(problems).toContainText('Row 6, Weight: “heavy” is not a weight in g/m²');
  await expect(problems).toContainText('Row 13: no image found for LS-12.');
  await expect(page.getByTestId('collection-start')).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'import-768-problems');

  // Fixed in place by keyboard: the cell is a button, Enter edits, Enter keeps.
  const cell = page.getByTestId('cell-6-3');
  await cell.focus();
  await page.keyboard.press('Enter');
  const input = page.getByTestId('cell-input-6-3');
  await expect(input).toBeFocused();
  await input.fill('185');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cell-6-3')).toHaveText('185');
  await expect(page.getByTestId('count-ready')).toHaveText('Ready: 11');
  await expect(page.getByTestId('count-blocked')).toHaveText('Need a fix: 1');

  // LS-12 left out by touch, taken back and left out again.
  await page.getByTestId('row-exclude-13').tap();
  await expect(page.getByTestId('count-excluded')).toHaveText('Left out: 1');
  await expect(page.getByTestId('count-blocked')).toHaveText('Need a fix: 0');
  await page.getByTestId('row-exclude-13').tap();
  await expect(page.getByTestId('count-blocked')).toHaveText('Need a fix: 1');
  await page.getByTestId('row-exclude-13').tap();
  await expect(page.getByTestId('count-excluded')).toHaveText('Left out: 1');
  await expect(page.getByTestId('collection-row-13')).toContainText('Left out');

  // The settings: the name starts as the sheet's; candidates, the run to the videos, the video's setup.
  const settings = page.getByTestId('collection-settings');
  await expect(page.getByTestId('collection-name')).toHaveValue('summer-fabrics');
  await page.getByTestId('collection-name').fill('Summer 2027');
  await expect(page.getByTestId('collection-prompt')).not.toHaveValue('');
  await page.getByTestId('collection-candidates').selectOption('3');
  await page.getByTestId('collection-run-videos').check();
  await page.getByTestId('collection-aspect').selectOption('vertical');
  await page.getByTestId('collection-duration').selectOption('10');
  await settings.getByRole('checkbox', { name: 'Push in' }).check();
  await settings.getByRole('checkbox', { name: 'Pan left' }).check();
  await settings.getByRole('checkbox', { name: 'Tilt up' }).check();
  await expect(settings.getByRole('checkbox', { name: 'Zoom in' })).toBeDisabled();

  // A reload mid-import finds it as it was: the files read again, the fix, the row left out, the settings.
  // (Once the last change is written: the work is kept a moment after each change.)
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<string>((resolve, reject) => {
            const open = indexedDB.open('loom-studio-collection-drafts');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const all = open.result.transaction('working').objectStore('working').getAll();
              all.onsuccess = () => {
                const kept = (all.result as { name: string; settings: { video: { camera: string[] } } | null }[])[0];
                resolve(`${kept?.name}|${kept?.settings?.video.camera.join(',')}`);
              };
            };
          }),
      ),
    )
    .toBe('Summer 2027|Push in,Pan left,Tilt up');
  await page.reload();
  await expect(page.getByTestId('count-ready')).toHaveText('Ready: 11', { timeout: 20_000 });
  await expect(page.getByTestId('count-excluded')).toHaveText('Left out: 1');
  await expect(page.getByTestId('cell-6-3')).toHaveText('185');
  await expect(page.getByTestId('collection-name')).toHaveValue('Summer 2027');
  await expect(page.getByTestId('collection-candidates')).toHaveValue('3');
  await expect(page.getByTestId('collection-run-videos')).toBeChecked();
  await expect(settings.getByRole('checkbox', { name: 'Tilt up' })).toBeChecked();

  const start = page.getByTestId('collection-start');
  await expect(start).toBeEnabled();
  await expect(start).toHaveText('Start with 11 fabrics');
  await expect(page.getByTestId('collection-import')).toContainText('11 fabrics with 14 images will be sent.');
  expect(await seriousViolations(page)).toEqual([]);
  // Nothing of the page is wider than the tablet.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'import-768-ready');

  // Start: the collection is kept on the device, its 14 images go up through tus, then the create
  // call (watched, not changed); the page lands on the collection.
  const created = page.waitForResponse((r) => r.url().endsWith('/api/collections') && r.request().method() === 'POST');
  await start.click();
  const response = await created;
  expect(response.status()).toBe(201);
  const body = response.request().postDataJSON() as CreateCollection;
  expect(body.name).toBe('Summer 2027');
  expect(body.language).toBe('en-US');
  expect(body.settings).toMatchObject({
    candidates: 3,
    pick_rule: 'score',
    stop_for_review: false,
    video: { kind: 'standard', aspect: 'vertical', camera: ['Push in', 'Pan left', 'Tilt up'], duration: 10, resolution: '768P' },
  });
  expect(body.items.map((i) => i.code)).toEqual(CODES.slice(0, 11));
  expect(body.items[4]!.fabric).toMatchObject({ weight: '185', fabric_name: 'Fabric 5', luster: 'Soft luster' });
  // The row's own candidates go as its override; the others run with the collection's.
  expect(body.items[0]!.overrides).toEqual({ candidates: 2 });
  expect(body.items[1]!.overrides).toBeUndefined();
  expect(body.items[0]!.model_upload_ids).toHaveLength(1);
  expect(body.items[0]!.pattern_upload_ids).toHaveLength(1);
  expect(new Set(body.items.flatMap((i) => [...i.model_upload_ids, ...i.pattern_upload_ids])).size).toBe(14);
  const ref = ((await response.json()) as { data: { id: number; client_collection_id: string } }).data;
  expect(ref.client_collection_id).toBe(body.client_collection_id);
  await expect(page).toHaveURL(new RegExp(`#/collections/${ref.id}$`), { timeout: 60_000 });
  // The collection's own page: its review grid, live.
  await expect(page.getByTestId('collection-page')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Summer 2027' })).toBeVisible();
  await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', '12');
  await shot(page, 'collection-landed');

  // The mapping the person corrects is remembered for the next sheet with these headers.
  await page.goto('/#/collections?new=1');
  await page.getByTestId('collection-sheet-input').setInputFiles(sheet);
  await page.getByTestId('collection-map-5').selectOption('');
  await page.getByTestId('collection-import-close').click();
  await page.getByTestId('collection-new').click();
  await page.getByTestId('collection-sheet-input').setInputFiles(sheet);
  await expect(page.getByTestId('collection-map-5')).toHaveValue('');
  await expect(page.getByTestId('collection-mapping')).toContainText('the fields you chose last time');
});

test('a collection started without a connection waits, survives a reload, and goes up by itself once the network is back', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const user = await createUser(request, 'GENERAL');
  await signInQuickly(page, request, user, '/#/collections?new=1');
  await importTenReady(page, 'autumn.csv');
  await expect(page.getByTestId('collection-start')).toHaveText('Start with 10 fabrics');

  // The network goes: uploads and the reachability probe get no answer.
  const cut = (route: { abort(): Promise<void> }) => route.abort();
  await page.route('**/api/uploads/**', cut);
  await page.route('**/config.json?reachability=1*', cut);
  let creates = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/collections') && r.method() === 'POST') creates += 1;
  });
  await page.getByTestId('collection-start').click();
  const pending = page.getByTestId('collection-pending');
  await expect(pending).toBeVisible();
  await expect(page.getByTestId('collection-pending-status')).toHaveText(/Waiting for the network/, { timeout: 30_000 });
  expect(await seriousViolations(page)).toEqual([]);

  // A reload finds it kept on the device, still waiting.
  await page.reload();
  await expect(pending).toBeVisible();
  await expect(pending).toContainText('autumn');
  await expect(page.getByTestId('collection-pending-status')).toHaveText(/Waiting for the network/, { timeout: 30_000 });
  expect(creates).toBe(0);

  // The tab is opened again on home; the network comes back: it goes on by itself from there and
  // says so, with a way to the collection.
  await page.goto('/#/');
  await page.reload();
  await expect(page.getByTestId('home-tools')).toBeVisible();
  await page.unroute('**/api/uploads/**', cut);
  await page.unroute('**/config.json?reachability=1*', cut);
  const notice = page.locator('[data-sonner-toast]', { hasText: 'autumn is on the server and running.' });
  await expect(notice).toBeVisible({ timeout: 60_000 });
  expect(creates).toBe(1);
  await notice.getByRole('button', { name: 'Open' }).click();
  await expect(page).toHaveURL(/#\/collections\/\d+$/);
  await page.goto('/#/collections');
  await expect(page.getByTestId('page-collections')).toBeVisible();
  await expect(pending).toHaveCount(0);
});

test('a collection whose session refresh loses its answer mid-upload keeps the person signed in and goes up on the next try', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  const user = await createUser(request, 'GENERAL');
  await signInQuickly(page, request, user, '/#/collections?new=1');
  await importTenReady(page, 'winter.csv');
  // The access token lapses, and the server's answer to the refresh is lost on the way: the
  // refresh token is rotated there while the page keeps the old one.
  const lost: number[] = [];
  await page.route('**/api/user/refresh/', async (route) => {
    lost.push((await route.fetch()).status());
    await route.abort('connectionreset');
  });
  await page.evaluate(() => {
    localStorage.setItem('token', 'expired.or.forged');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
  });
  const refreshFailed = page.waitForEvent('requestfailed', (r) => r.url().includes('/api/user/refresh/'));
  await page.getByTestId('collection-start').click();
  await refreshFailed;
  const pending = page.getByTestId('collection-pending');
  await expect(pending).toBeVisible();
  await expect(page.getByTestId('collection-pending-status')).not.toHaveText(/refused|Login expired/i);
  await expect(page).toHaveURL(/#\/collections/);
  expect(lost).toEqual([200]);

  // The next answer arrives: the old refresh token is taken within the server's grace period, and
  // the uploads and the collection go through by themselves; the page lands on the collection.
  const created = page.waitForResponse((r) => r.url().endsWith('/api/collections') && r.request().method() === 'POST');
  await page.unroute('**/api/user/refresh/');
  const response = await created;
  expect(response.status()).toBe(201);
  const ref = ((await response.json()) as { data: { id: number } }).data;
  await expect(page).toHaveURL(new RegExp(`#/collections/${ref.id}$`), { timeout: 25_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'winter' })).toBeVisible();
  await expect(page.getByText('Login expired, please log in again')).toBeHidden();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).not.toBe('expired.or.forged');
});

test('a started collection can be cancelled, and nothing of it stays on the device', async ({ page, request }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  const user = await createUser(request, 'ADMIN');
  await signInQuickly(page, request, user, '/#/collections?new=1');
  await importTenReady(page, 'winter.csv');
  await page.route('**/api/uploads/**', (route) => route.abort());
  await page.getByTestId('collection-start').click();
  await expect(page.getByTestId('collection-pending')).toBeVisible();
  await page.getByTestId('collection-pending-cancel').click();
  const dialog = page.getByRole('dialog', { name: 'Stop this collection?' });
  await expect(dialog).toBeVisible();
  // Esc keeps it going; the confirmation stops it.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('collection-pending')).toBeVisible();
  await page.getByTestId('collection-pending-cancel').click();
  await dialog.getByRole('button', { name: 'Stop and remove' }).click();
  await expect(page.getByTestId('collection-pending')).toHaveCount(0);
  const kept = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('loom-studio-collection-drafts');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction(['drafts', 'images']).objectStore('images').count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
  );
  expect(kept).toBe(0);
  await page.reload();
  await expect(page.getByTestId('page-collections')).toBeVisible();
  await expect(page.getByTestId('collection-new')).toBeVisible();
  await expect(page.getByTestId('collection-pending')).toHaveCount(0);
});

test('an image the server refuses stops the collection with the server’s words, until the person discards it', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const user = await createUser(request, 'GENERAL');
  await signInQuickly(page, request, user, '/#/collections?new=1');
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-collection-'));
  const sheet = path.join(dir, 'broken.csv');
  writeFileSync(sheet, 'Code,Fabric name\r\nQ-1,Tweed\r\n');
  const folder = path.join(dir, 'images');
  mkdirSync(folder);
  // A PNG's signature and nothing after it: the device takes it for a PNG, the server cannot read it.
  writeFileSync(path.join(folder, 'Q-1_pattern.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
  await page.getByTestId('collection-sheet-input').setInputFiles(sheet);
  await page.getByTestId('collection-folder-input').setInputFiles(folder);
  await expect(page.getByTestId('count-ready')).toHaveText('Ready: 1');
  await page.getByTestId('collection-start').click();
  const pending = page.getByTestId('collection-pending');
  await expect(page.getByTestId('collection-pending-status')).toHaveText('The server refused this collection.', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('collection-pending-message')).toContainText('Q-1_pattern.png');
  expect(await seriousViolations(page)).toEqual([]);
  // Kept, refused, after a reload: the person decides.
  await page.reload();
  await expect(page.getByTestId('collection-pending-status')).toHaveText('The server refused this collection.');
  await pending.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop and remove' }).click();
  await expect(pending).toHaveCount(0);
});

test('the template comes in the person’s language, and a sheet the import cannot read says why', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const user = await createUser(request, 'ADMIN');
  await signInQuickly(page, request, user, '/#/collections?new=1');
  await expect(page.getByTestId('collection-import')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByTestId('collection-template-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('collection-template.csv');
  const text = await (await file.createReadStream()).toArray();
  const template = Buffer.concat(text as Buffer[]).toString('utf8');
  expect(template.startsWith('\ufeffCode,Fabric name,')).toBe(true);

  // A sheet and two loose images dropped together on the zone.
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['Code,Fabric name\r\nQ-1,Tweed\r\n'], 'dropped.csv', { type: 'text/csv' }));
    // The smallest valid PNG's signature is enough for the import to call it a PNG.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    transfer.items.add(new File([png], 'Q-1_pattern.png', { type: 'image/png' }));
    transfer.items.add(new File([png], 'Q-1_model.png', { type: 'image/png' }));
    return transfer;
  });
  await page.getByTestId('collection-drop').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByTestId('collection-sheet-name')).toHaveText('dropped.csv');
  await expect(page.getByTestId('collection-images-name')).toHaveText('Folder with 2 files');
  await expect(page.getByTestId('count-ready')).toHaveText('Ready: 1');

  const dir = mkdtempSync(path.join(tmpdir(), 'loom-collection-'));
  const old = path.join(dir, 'fabrics.xls');
  writeFileSync(old, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]));
  await page.getByTestId('collection-sheet-input').setInputFiles(old);
  await expect(page.getByTestId('collection-sheet-error')).toContainText(
    'fabrics.xls is an old Excel .xls file: save it as .xlsx or .csv and try again.',
  );
  const noCode = path.join(dir, 'no-code.csv');
  writeFileSync(noCode, 'Fabric name,Weight\r\nLinen,180\r\n');
  await page.getByTestId('collection-sheet-input').setInputFiles(noCode);
  await expect(page.getByTestId('collection-mapping-problems')).toContainText('No column holds the fabric code');
  expect(await seriousViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
