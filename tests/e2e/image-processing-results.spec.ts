// What a designer does with finished upscales, in Chromium against the real engine: compare before
// and after with the keyboard (both sides zoom together), inspect one in the viewer with its
// shortcuts, and download the batch as one ZIP whose entries and manifest match the results.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync, strFromU8 } from 'fflate';
import sharp from 'sharp';
import { startServer, type RunningServer } from './server-process';
import { freePort } from './offline-helpers';
import { pngFiles, signIn } from './image-processing-helpers';

let server: RunningServer;

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  server = await startServer(await freePort(), process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {});
});

test.afterAll(async () => {
  await server?.stop();
});

const completed = (page: Page) => page.locator('[data-testid="result-card"][data-status="completed"]');

async function upscaleThree(page: Page): Promise<void> {
  await signIn(page, server.url);
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();
  await page.getByTestId('upload-input').setInputFiles(pngFiles(3, 40, 20));
  await expect(page.getByTestId('pending-file')).toHaveCount(3);
  await page.getByTestId('start-upscale').click();
  await expect(completed(page)).toHaveCount(3, { timeout: 60_000 });
}

test('compare slider and viewer answer the keyboard', async ({ page }) => {
  await upscaleThree(page);

  await completed(page).first().getByTestId('item-compare').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog).toBeVisible();
  const handle = dialog.getByRole('slider');
  await expect(handle).toBeVisible();
  await handle.focus();
  await handle.press('End');
  await expect(handle).toHaveAttribute('aria-valuenow', '100');
  await handle.press('Home');
  await expect(handle).toHaveAttribute('aria-valuenow', '0');
  await handle.press('ArrowRight');
  const afterOneStep = Number(await handle.getAttribute('aria-valuenow'));
  expect(afterOneStep).toBeGreaterThan(0);
  await handle.press('Shift+ArrowRight');
  expect(Number(await handle.getAttribute('aria-valuenow'))).toBeGreaterThan(afterOneStep);

  // Zoom with the keyboard: before and after keep exactly the same transform.
  await handle.press('+');
  await handle.press('+');
  const transforms = await dialog.locator('[data-testid="compare-slider"] img').evaluateAll((images) =>
    images.map((img) => (img as HTMLImageElement).style.transform),
  );
  expect(transforms.length).toBe(2);
  expect(transforms[0]).toBe(transforms[1]);
  expect(transforms[0]).toMatch(/scale\(1\.[1-9]/);
  await handle.press('0');
  await expect(dialog.locator('[data-testid="compare-slider"] img').first()).toHaveAttribute('style', /scale\(1(\.0+)?\)/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The viewer: arrows rotate, +/scroll zoom, R resets, Esc closes.
  await completed(page).nth(1).getByTestId('item-view').click();
  const viewer = page.getByTestId('image-viewer');
  await expect(viewer).toBeVisible();
  const image = viewer.locator('.image-viewer__image');
  const zoom = viewer.locator('output');
  await expect(zoom).toHaveText('100%');
  await page.keyboard.press('ArrowRight');
  await expect(image).toHaveAttribute('style', /rotate\(90deg\)/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(image).toHaveAttribute('style', /rotate\(-90deg\)/);
  await page.keyboard.press('+');
  await expect(zoom).not.toHaveText('100%');
  await page.keyboard.press('r');
  await expect(zoom).toHaveText('100%');
  await expect(image).toHaveAttribute('style', /rotate\(0deg\)/);
  const stage = viewer.getByTestId('image-viewer-stage');
  const box = (await stage.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await expect(zoom).not.toHaveText('100%');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
});

test('the batch ZIP holds every result under its original name, model and scale, with a manifest', async ({ page }) => {
  await upscaleThree(page);
  const download = page.waitForEvent('download');
  await page.getByTestId('zip-download').click();
  const file = await (await download).path();
  const entries = unzipSync(new Uint8Array(readFileSync(file)));
  const names = Object.keys(entries).sort();
  expect(names).toEqual([
    'fabric-21_up2x-conservative.png',
    'fabric-22_up2x-conservative.png',
    'fabric-23_up2x-conservative.png',
    'manifest.csv',
  ]);
  const sources = new Map(pngFiles(3, 40, 20).map((f) => [f.name.replace('.png', ''), f.buffer]));
  for (const name of names.filter((n) => n.endsWith('.png'))) {
    const meta = await sharp(Buffer.from(entries[name]!)).metadata();
    expect({ name, width: meta.width, height: meta.height }).toEqual({ name, width: 80, height: 80 });
    // Each entry is its own source upscaled, not another image's result: scaled back down, it
    // matches its source far better than any other source.
    const down = await sharp(Buffer.from(entries[name]!)).removeAlpha().resize(40, 40, { kernel: 'cubic' }).raw().toBuffer();
    const distance = async (source: Buffer) => {
      const raw = await sharp(source).removeAlpha().raw().toBuffer();
      let sum = 0;
      for (let i = 0; i < raw.length; i++) sum += Math.abs(raw[i]! - down[i]!);
      return sum / raw.length;
    };
    const own = await distance(sources.get(name.split('_')[0]!)!);
    for (const [stem, other] of sources) if (!name.startsWith(`${stem}_`)) expect(own).toBeLessThan(await distance(other));
    expect(own).toBeLessThan(12);
  }
  const manifest = strFromU8(entries['manifest.csv']!).replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  expect(manifest).toHaveLength(4);
  expect(manifest[0]).toMatch(/source.*output.*model.*scale/i);
  for (const n of [21, 22, 23]) {
    const row = manifest.find((line) => line.startsWith(`fabric-${n}.png,`));
    expect(row, `manifest row for fabric-${n}.png`).toBeDefined();
    expect(row).toContain(`fabric-${n}_up2x-conservative.png`);
    expect(row).toContain('up2x-conservative');
    expect(row).toContain('80');
  }
  await expect(page.getByTestId('zip-progress')).toHaveCount(0);
});
