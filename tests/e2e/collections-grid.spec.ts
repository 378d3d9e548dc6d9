// A collection's review page in Chromium against the companion server with its built-in engine:
// a 12-fabric collection imported from a sheet and a folder of swatches on the import page (its
// images up through tus, then POST /collections) runs to videos while the page watches at
// 768×1024; a reload in the middle carries
// on; a row is skipped from the keyboard; the filter lives in the address; the lookbook ZIP's names
// follow the template (a colliding template blocks it); the results CSV downloads; axe finds no
// serious or critical violation at either tablet size.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import type { CollectionRef, CreateCollection } from '../../shared/collections/collection-types';
import { seriousViolations } from './accessibility';
import { makePng } from './image-processing-helpers';
import { openSignedIn, signInApi } from './offline-helpers';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';

const PORT = Number(process.env.COLLECTIONS_GRID_E2E_PORT ?? 8191);
const DESIGNER = { account: 'cg-general', password: 'cg-general-pass' };
const FABRICS = 12;
let server: RunningServer;

test.describe.configure({ mode: 'serial' });

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

async function api<T>(path: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; data: T }> {
  const res = await fetch(`${server.url}/api${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await res.json()) as Envelope<T>;
  if (!body.success) throw new Error(`${path} answered ${res.status}: ${body.message}`);
  return { status: res.status, data: body.data };
}

function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}

/** One image through tus 1.0 (creation, then one PATCH): answers the upload id (the URL's last segment). */
async function tusUpload(token: string, name: string, bytes: Buffer): Promise<string> {
  const endpoint = `${server.url}/api/uploads/`;
  const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
  const created = await fetch(endpoint, {
    method: 'POST',
    headers: { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': metadata({ filename: name, filetype: 'image/png', purpose: 'collection' }) },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const url = new URL(created.headers.get('location')!, endpoint).href;
  const patched = await fetch(url, {
    method: 'PATCH',
    headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(bytes),
  });
  expect(patched.status, await patched.clone().text()).toBe(204);
  return decodeURIComponent(new URL(url).pathname.replace(/\/+$/, '').split('/').pop()!);
}

const code = (n: number) => `SS27-${String(n).padStart(3, '0')}`;

async function createCollection(token: string, options: { name?: string; fabrics?: number; candidates?: number; review?: boolean } = {}): Promise<CollectionRef> {
  const items: CreateCollection['items'] = [];
  for (let n = 1; n <= (options.fabrics ?? FABRICS); n++) {
    const model = await tusUpload(token, `${code(n)}_model.png`, makePng(64, 64, 20 + n));
    const pattern = await tusUpload(token, `${code(n)}_pattern.png`, makePng(64, 64, 140 + n));
    items.push({
      code: code(n),
      name: n % 2 ? `Silk chiffon ${n}` : `真丝雪纺 ${n}`,
      fabric: { fabric_name: `Silk chiffon ${n}`, composition: '100% silk' },
      model_upload_ids: [model],
      pattern_upload_ids: [pattern],
    });
  }
  const body: CreateCollection = {
    client_collection_id: `cg-${Date.now().toString(36)}`,
    name: options.name ?? 'Spring 27',
    language: 'en-US',
    settings: {
      image_prompt: 'A model in a sunlit studio wearing the fabric',
      candidates: options.candidates ?? 2,
      pick_rule: 'score',
      stop_for_review: options.review ?? false,
      video: { kind: 'standard', aspect: 'auto', camera: [], duration: 6, resolution: '768P' },
    },
    items,
  };
  const { status, data } = await api<CollectionRef>('/collections', token, { method: 'POST', body });
  expect(status).toBe(201);
  return data;
}

/**
 * The person's way in: a sheet of FABRICS rows and a folder with a model and a pattern image per
 * code, read on the import page at 768×1024; two candidates each, run through to the videos, then
 * Start. Answers the collection's id from the address the page lands on.
 */
async function importThroughPage(page: Page): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-cg-'));
  const sheet = path.join(dir, 'spring-27.csv');
  const rows = Array.from({ length: FABRICS }, (_, i) => `${code(i + 1)},Silk chiffon ${i + 1},100% silk`);
  writeFileSync(sheet, `${['Article No.,Fabric name,Composition', ...rows].join('\r\n')}\r\n`);
  const folder = path.join(dir, 'swatches');
  mkdirSync(folder);
  for (let n = 1; n <= FABRICS; n++) {
    writeFileSync(path.join(folder, `${code(n)}_model_1.png`), makePng(64, 64, 20 + n));
    writeFileSync(path.join(folder, `${code(n)}_pattern.png`), makePng(64, 64, 140 + n));
  }
  await openAsDesigner(page, '/collections?new=1');
  await page.getByTestId('collection-sheet-input').setInputFiles(sheet);
  await page.getByTestId('collection-folder-input').setInputFiles(folder);
  await expect(page.getByTestId('count-ready')).toHaveText(`Ready: ${FABRICS}`, { timeout: 20_000 });
  await page.getByTestId('collection-name').fill('Spring 27');
  await page.getByTestId('collection-candidates').selectOption('2');
  await page.getByTestId('collection-run-videos').check();
  await page.getByTestId('collection-duration').selectOption('6');
  const start = page.getByTestId('collection-start');
  await expect(start).toHaveText(`Start with ${FABRICS} fabrics`);
  await start.click();
  await expect(page).toHaveURL(/#\/collections\/\d+$/, { timeout: 60_000 });
  return Number(/#\/collections\/(\d+)$/.exec(page.url())![1]);
}

async function openAsDesigner(page: Page, path: string): Promise<void> {
  const grant = await signInApi(server.url, DESIGNER.account, DESIGNER.password);
  await openSignedIn(page, server.url, grant, `#${path}`);
}

/** COLLECTION_SHOTS=<folder> keeps a picture of each step, to look at the page by eye. */
const shot = async (page: Page, name: string) => {
  if (process.env.COLLECTION_SHOTS) await page.screenshot({ path: `${process.env.COLLECTION_SHOTS}/${name}.png`, fullPage: true });
};

const count = async (page: Page, status: string) => Number(await page.getByTestId(`count-${status}`).getAttribute('data-count'));

test.beforeAll(async () => {
  server = await startServer(PORT, process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {});
  const admin = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  const res = await fetch(`${server.url}/api/users/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({ account: DESIGNER.account, password: DESIGNER.password, user_level: 'GENERAL', display_name: 'Designer' }),
  });
  expect(res.status).toBeLessThan(300);
});

test.afterAll(async () => {
  await server?.stop();
});

test('a 12-fabric collection imported from a folder runs to videos on its page; reload, a row command, filter, lookbook ZIP and CSV', async ({ page }) => {
  test.setTimeout(15 * 60_000);
  const longTasks: number[] = [];
  const grant = await signInApi(server.url, DESIGNER.account, DESIGNER.password);
  await page.setViewportSize({ width: 768, height: 1024 });
  const ref = { id: await importThroughPage(page) };
  await expect(page.getByTestId('collection-page')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Spring 27' })).toBeVisible();
  await expect(page.getByTestId('collection-page')).toHaveAttribute('data-stream', 'live', { timeout: 30_000 });
  const grid = page.getByRole('grid');
  await expect(grid).toHaveAttribute('aria-rowcount', String(FABRICS + 1));

  // The row command, by keyboard: into the grid, Ctrl+End to the last row's commands, Tab to Skip.
  await grid.locator('[tabindex="0"]').first().focus();
  await page.keyboard.press('Control+End');
  const lastRow = page.locator(`[data-testid="collection-row"][data-code="${code(FABRICS)}"]`);
  await expect(lastRow.locator('.cg-cell--actions')).toBeFocused();
  await expect(lastRow).toHaveAttribute('data-status', 'queued');
  await page.keyboard.press('Tab');
  await expect(lastRow.getByTestId('row-skip')).toBeFocused();
  await expect(lastRow.getByTestId('row-skip')).toHaveAccessibleName(`Skip ${code(FABRICS)}`);
  await page.keyboard.press('Enter');
  await expect(lastRow).toHaveAttribute('data-status', 'skipped', { timeout: 15_000 });
  await expect(lastRow.getByTestId('row-status')).toHaveText('Skipped');

  // It runs: live counts move while rows go through their stages.
  await expect.poll(() => count(page, 'done'), { timeout: 5 * 60_000, intervals: [1000] }).toBeGreaterThanOrEqual(2);
  expect(await seriousViolations(page)).toEqual([]);
  const doneBefore = await count(page, 'done');
  expect(doneBefore).toBeLessThan(FABRICS - 1);
  await shot(page, '1-running-768');

  // A reload in the middle: the saved copy shows at once, the stream comes back and it carries on.
  await page.reload();
  await expect(page.getByTestId('collection-page')).toBeVisible();
  // The saved copy is written a quarter second after each change, and the reload may come first:
  // it can be one fabric behind what the page showed (seen in a full run: 2 done against 3). It
  // holds what was done well before; the stream brings it up to date.
  expect(await count(page, 'done')).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('collection-page')).toHaveAttribute('data-stream', 'live', { timeout: 30_000 });
  await expect.poll(() => count(page, 'done'), { timeout: 30_000 }).toBeGreaterThanOrEqual(doneBefore);
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  await expect(page.getByTestId('collection-status')).toHaveAttribute('data-status', 'completed', { timeout: 10 * 60_000 });
  longTasks.push(...(await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks)));
  expect(await count(page, 'done')).toBe(FABRICS - 1);
  expect(await count(page, 'skipped')).toBe(1);
  const firstRow = page.locator(`[data-testid="collection-row"][data-code="${code(1)}"]`);
  await expect(firstRow.getByTestId('video-link')).toHaveAccessibleName(`Play the video of ${code(1)}`);
  await expect(firstRow.locator('[data-picked="true"]')).toHaveCount(1);
  await expect(firstRow.getByTestId('picked-image')).toBeVisible();

  // The filter is in the address and survives a reload.
  await page.getByTestId('filter-done').click();
  await expect(page).toHaveURL(/show=done/);
  await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', String(FABRICS));
  await page.reload();
  await expect(page.getByTestId('filter-done')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', String(FABRICS));

  // The lookbook: a template that names every row alike blocks the export and says which rows.
  const template = page.getByTestId('naming-template');
  await template.fill('{stage}');
  await expect(page.getByTestId('naming-problems')).toContainText('Rows 1');
  await expect(page.getByTestId('export-zip')).toBeDisabled();
  await template.fill('{index}_{code}_{stage}');
  await expect(page.getByTestId('naming-problems')).toHaveCount(0);
  await expect(page.getByTestId('naming-preview').locator('li').first()).toHaveText(/^01_SS27-001_pick\.\w+$/);
  expect(await seriousViolations(page)).toEqual([]);
  const zipDownload = page.waitForEvent('download');
  await page.getByTestId('export-zip').click();
  const zip = await zipDownload;
  expect(zip.suggestedFilename()).toMatch(/^Spring 27-lookbook-\d{4}-\d{2}-\d{2}\.zip$/);
  const entries = unzipSync(new Uint8Array(readFileSync((await zip.path())!)));
  const names = Object.keys(entries).sort();
  const expected = Array.from({ length: FABRICS - 1 }, (_, i) => i + 1).flatMap((n) => [
    new RegExp(`^${String(n).padStart(2, '0')}_${code(n)}_pick\\.(png|jpe?g|webp)$`),
    new RegExp(`^${String(n).padStart(2, '0')}_${code(n)}_video\\.mp4$`),
  ]);
  expect(names).toHaveLength(expected.length);
  for (const pattern of expected) expect(names.some((name) => pattern.test(name)), String(pattern)).toBe(true);
  for (const name of names) expect(entries[name]!.length, name).toBeGreaterThan(100);
  await expect(page.getByTestId('export-message')).toHaveText(`Lookbook ZIP saved with ${expected.length} files.`);
  await shot(page, '2-exported-768');

  // The results sheet, in the reader's language, with the session's token.
  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const csv = await csvDownload;
  const text = strFromU8(new Uint8Array(readFileSync((await csv.path())!)));
  for (let n = 1; n <= FABRICS; n++) expect(text).toContain(code(n));

  // The other tablet size, by touch-sized controls and with no serious or critical violation.
  await page.setViewportSize({ width: 1024, height: 768 });
  expect(await seriousViolations(page)).toEqual([]);
  const tooSmall = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="collection-page"] button')]
      .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().height < 24)
      .map((b) => b.textContent),
  );
  expect(tooSmall).toEqual([]);
  await shot(page, '3-done-1024');

  // History shows the fabric's video too, and leads back to its collection.
  const view = await fetch(`${server.url}/api/collections/${ref.id}`, { headers: { authorization: `Bearer ${grant.token}` } });
  const first = ((await view.json()) as { data: { items: { code: string; video: { id: number } | null }[] } }).data.items.find((i) => i.video);
  expect(first).toBeDefined();
  await page.goto(`${server.url}/#/history?tab=videos&video=${first!.video!.id}`);
  const link = page.getByTestId('video-detail').getByTestId('field-collection').getByRole('link');
  await expect(link).toHaveText(`Spring 27 · ${first!.code}`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`#/collections/${ref.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Spring 27' })).toBeVisible();
  console.log(`collection of ${FABRICS}: long tasks after the reload ${longTasks.length}, longest ${Math.round(Math.max(0, ...longTasks))} ms`);
});

/** The status of collection `id` in the query cache the page saved to IndexedDB, if it is there. */
function savedCollectionStatus(page: Page, id: number): Promise<string | undefined> {
  return page.evaluate(
    (collectionId) =>
      new Promise<string | undefined>((resolve, reject) => {
        const open = indexedDB.open('loom-studio');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('query-cache').objectStore('query-cache').getAll();
          all.onsuccess = () => {
            open.result.close();
            type Saved = { client: { clientState: { queries: { queryKey: unknown[]; state: { data?: { status?: string } } }[] } } };
            const queries = (all.result as Saved[]).flatMap((r) => r.client.clientState.queries);
            const view = queries.find((q) => q.queryKey[0] === 'collections' && q.queryKey[1] === 'detail' && q.queryKey[2] === collectionId);
            resolve(view?.state.data?.status);
          };
        };
      }),
    id,
  );
}

test('offline: a finished collection browses from the saved copy', async ({ page }) => {
  const grant = await signInApi(server.url, DESIGNER.account, DESIGNER.password);
  const list = await api<{ items: { id: number; name: string; status: string }[] }>('/collections', grant.token);
  const finished = list.data.items.find((c) => c.name === 'Spring 27' && c.status === 'completed');
  // The suite runs in order: the first test ran this collection to its end.
  expect(finished, 'the collection the first test finished').toBeDefined();
  await page.setViewportSize({ width: 1024, height: 768 });
  await openAsDesigner(page, `/collections/${finished!.id}`);
  await expect(page.getByTestId('collection-status')).toHaveAttribute('data-status', 'completed');
  // Once the persister has written the finished view, cut the API off and come back.
  await expect.poll(() => savedCollectionStatus(page, finished!.id), { timeout: 15_000 }).toBe('completed');
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByTestId('collection-status')).toHaveAttribute('data-status', 'completed', { timeout: 15_000 });
  await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', String(FABRICS + 1));
  await expect(page.getByTestId('count-done')).toHaveAttribute('data-count', String(FABRICS - 1));
});

test('500 fabrics: the grid renders only the rows in view and scrolls without long stalls', async ({ page }) => {
  test.setTimeout(5 * 60_000);
  const ROWS = 500;
  const admin = await signInApi(server.url, E2E_ADMIN.account, E2E_ADMIN.password);
  const items: CreateCollection['items'] = [];
  for (let n = 1; n <= ROWS; n++) {
    const pattern = await tusUpload(admin.token, `big-${n}.png`, makePng(16, 16, n));
    items.push({ code: `BIG-${String(n).padStart(3, '0')}`, name: `Fabric ${n}`, fabric: {}, model_upload_ids: [], pattern_upload_ids: [pattern] });
  }
  const created = await api<CollectionRef>('/collections', admin.token, {
    method: 'POST',
    body: {
      client_collection_id: `cg-big-${Date.now().toString(36)}`,
      name: 'Five hundred',
      language: 'en-US',
      settings: {
        image_prompt: 'A studio shot',
        candidates: 1,
        pick_rule: 'score',
        stop_for_review: false,
        video: { kind: 'standard', aspect: 'auto', camera: [], duration: 6, resolution: '768P' },
      },
      items,
    } satisfies CreateCollection,
  });
  // Stopped at once: this test is about the page, not the engine.
  await api<CollectionRef>(`/collections/${created.data.id}/cancel`, admin.token, { method: 'POST', body: {} });

  await page.setViewportSize({ width: 1024, height: 768 });
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await openSignedIn(page, server.url, admin, `#/collections/${created.data.id}`);
  const grid = page.getByRole('grid');
  await expect(grid).toHaveAttribute('aria-rowcount', String(ROWS + 1), { timeout: 30_000 });
  const opened = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.splice(0));

  const scroller = page.getByTestId('collection-grid-scroll');
  await scroller.hover();
  for (let step = 0; step < 40; step++) await page.mouse.wheel(0, 2000);
  await expect(page.locator(`[data-testid="collection-row"][data-code="BIG-${ROWS}"]`)).toBeVisible();
  const rendered = await page.getByTestId('collection-row').count();
  expect(rendered).toBeLessThan(30);
  // Back to the top by keyboard: Ctrl+Home from a cell of the last row.
  await page.locator(`[data-testid="collection-row"][data-code="BIG-${ROWS}"] [data-col="0"]`).click();
  await page.keyboard.press('Control+Home');
  await expect(page.locator('[data-testid="collection-row"][data-code="BIG-001"] [data-col="0"]')).toBeFocused();
  const scrolled = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.splice(0));
  console.log(
    `${ROWS} rows: ${rendered} rendered; long tasks opening ${opened.length} (longest ${Math.round(Math.max(0, ...opened))} ms), ` +
      `scrolling ${scrolled.length} (longest ${Math.round(Math.max(0, ...scrolled))} ms)`,
  );
  // The figures are printed above; the machine runs other suites at the same time (2 shared
  // cores), so the bound only catches a grid that lays out all its rows at once (seconds here).
  expect(Math.max(0, ...scrolled)).toBeLessThan(1000);
});

test('review: another candidate is picked in the grid, another row is approved, both go on to their videos', async ({ page }) => {
  test.setTimeout(8 * 60_000);
  const grant = await signInApi(server.url, DESIGNER.account, DESIGNER.password);
  const ref = await createCollection(grant.token, { name: 'Review 27', fabrics: 2, candidates: 3, review: true });
  await page.setViewportSize({ width: 1024, height: 768 });
  await openAsDesigner(page, `/collections/${ref.id}?show=review`);
  await expect(page.getByTestId('filter-review')).toHaveAttribute('aria-pressed', 'true', { timeout: 30_000 });
  const row = (n: number) => page.locator(`[data-testid="collection-row"][data-code="${code(n)}"]`);
  await expect(row(1)).toHaveAttribute('data-status', 'review', { timeout: 5 * 60_000 });
  await expect(row(2)).toHaveAttribute('data-status', 'review', { timeout: 5 * 60_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, '4-review-1024');

  // Row 1: the rule's pick is marked; another candidate is chosen by touch.
  const choices = row(1).getByTestId('candidate-pick');
  await expect(choices).toHaveCount(3);
  await expect(row(1).locator('[data-testid="candidate-pick"][aria-pressed="true"]')).toHaveCount(1);
  const other = row(1).locator('[data-testid="candidate-pick"][aria-pressed="false"]').first();
  await expect(other).toHaveAccessibleName(/^Pick Candidate \d/);
  await other.click();
  // Row 2: approved as the rule picked it.
  await row(2).getByTestId('row-approve').click();
  // Both leave the review filter; all of them are shown again to follow them to their videos.
  await expect(page.getByTestId('collection-empty')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('filter-all').click();
  await expect(page).not.toHaveURL(/show=/);
  await expect(page.getByTestId('collection-status')).toHaveAttribute('data-status', 'completed', { timeout: 5 * 60_000 });
  await expect(row(1).getByTestId('row-status')).toHaveText('Done');
  await expect(row(1).getByTestId('picked-image')).toBeVisible();
  await expect(row(1).locator('.cg-cell--pick')).toContainText('Picked by you');
  await expect(row(2).locator('.cg-cell--pick')).toContainText('Picked by score');
  await expect(row(2).getByTestId('video-link')).toBeVisible();
});
