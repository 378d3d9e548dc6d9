// The two helpers beyond plain batch upscaling, the way a designer meets them, in Chromium against
// the real engine: each added image says which denoise level it needs and why (a blocky JPEG and a
// clean PNG), the variant preview shows one crop through every model of the scale side by side,
// and the chosen model becomes the batch's model. Screenshots at 1024×768 touch for a human look.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signIn } from './image-processing-helpers';
import { freePort } from './offline-helpers';
import { startServer, type RunningServer } from './server-process';

const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const SIZE = 96;
const VARIANTS_2X = [
  'up2x-conservative',
  'up2x-no-denoise',
  'up2x-denoise1x',
  'up2x-denoise2x',
  'up2x-denoise3x',
];
let server: RunningServer;

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer(
    await freePort(),
    process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {},
  );
});

test.afterAll(async () => {
  await server?.stop();
});

/** A woven-fabric-like texture: fine weave over a soft gradient, as raw RGB. */
function fabric(): Buffer {
  const raw = Buffer.alloc(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y += 1) {
    for (let x = 0; x < SIZE; x += 1) {
      const v = 110 + 25 * Math.sin(x / 3.1) * Math.sin(y / 2.7) + 30 * Math.sin(x / 40 + y / 55) + x * 0.15;
      const i = (y * SIZE + x) * 3;
      raw[i] = Math.max(0, Math.min(255, v + 30));
      raw[i + 1] = Math.max(0, Math.min(255, v));
      raw[i + 2] = Math.max(0, Math.min(255, v - 20));
    }
  }
  return raw;
}

async function designerFiles() {
  const image = sharp(fabric(), { raw: { width: SIZE, height: SIZE, channels: 3 } });
  return [
    {
      name: 'booth-photo.jpg',
      mimeType: 'image/jpeg',
      buffer: await image.clone().jpeg({ quality: 8 }).toBuffer(),
    },
    { name: 'swatch-scan.png', mimeType: 'image/png', buffer: await image.clone().png().toBuffer() },
  ];
}

const row = (page: Page, name: string) => page.getByTestId('pending-file').filter({ hasText: name });

test('each image gets its denoise suggestion; the variant preview applies a model to the batch', async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 1024, height: 768 },
    hasTouch: true,
    isMobile: true,
    locale: 'en-US',
  });
  const page = await context.newPage();
  await signIn(page, server.url);
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();
  await page.getByTestId('upload-input').setInputFiles(await designerFiles());

  // The blocky JPEG: strong denoise, because of its compression; the clean PNG: conservative.
  const jpeg = row(page, 'booth-photo.jpg');
  const png = row(page, 'swatch-scan.png');
  await expect(jpeg).toHaveAttribute('data-suggested', 'up2x-denoise3x');
  await expect(jpeg.getByTestId('noise-reason')).toContainText('Heavy JPEG compression');
  await expect(png).toHaveAttribute('data-suggested', 'up2x-conservative');
  await expect(png.getByTestId('noise-reason')).toContainText('Clean image');
  // Conservative is the default model, so the PNG's suggestion is already in use.
  await expect(png.getByTestId('noise-in-use')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/ip-variants-1-suggestions.png` });

  // The estimate is kept with the file: a reload shows it again.
  await page.reload();
  await expect(row(page, 'booth-photo.jpg').getByTestId('noise-reason')).toContainText(
    'Heavy JPEG compression',
  );

  // One tap on "use suggested model" switches the picker.
  await row(page, 'booth-photo.jpg').getByTestId('use-suggested').tap();
  await expect(page.getByTestId('model-up2x-denoise3x').locator('input')).toBeChecked();
  await expect(row(page, 'booth-photo.jpg').getByTestId('noise-in-use')).toBeVisible();

  // The variant preview of the JPEG: every 2x model upscales the crop, all shown side by side.
  await row(page, 'booth-photo.jpg').getByTestId('preview-variants').tap();
  const dialog = page.getByTestId('variant-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('variant-crop-box')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/ip-variants-2-crop.png` });
  await dialog.getByRole('button', { name: 'Preview 5 models' }).tap();
  for (const name of VARIANTS_2X) {
    const image = dialog.getByTestId(`variant-${name}`).locator('img');
    await expect(image).toBeVisible({ timeout: 60_000 });
    // The real engine's output: twice the crop (the crop is the whole 96 px image).
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(SIZE * 2);
  }
  await expect(dialog.locator('[data-testid^="variant-up"]')).toHaveCount(VARIANTS_2X.length);
  // The suggestion is preselected.
  await expect(dialog.getByTestId('variant-up2x-denoise3x').getByRole('radio')).toBeChecked();
  await page.screenshot({ path: `${SHOTS}/ip-variants-3-tiles.png` });

  // The designer prefers the no-denoise look and applies it.
  await dialog.getByTestId('variant-up2x-no-denoise').locator('figcaption label').tap();
  await expect(dialog.getByTestId('variant-up2x-no-denoise').getByRole('radio')).toBeChecked();
  await dialog.getByRole('button', { name: /^Apply / }).tap();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('model-up2x-no-denoise').locator('input')).toBeChecked();
  await page.screenshot({ path: `${SHOTS}/ip-variants-4-applied.png` });
  await context.close();
});

test('the variant preview opens from the keyboard and Esc leaves the model as it was', async ({ page }) => {
  await signIn(page, server.url);
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();
  await page.getByTestId('upload-input').setInputFiles(await designerFiles());
  await expect(page.getByTestId('pending-file')).toHaveCount(2);
  await row(page, 'swatch-scan.png').getByTestId('preview-variants').focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('variant-dialog');
  await expect(dialog).toBeVisible();
  const crop = dialog.getByTestId('variant-crop-box');
  await crop.focus();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('model-up2x-conservative').locator('input')).toBeChecked();
  await expect(row(page, 'swatch-scan.png').getByTestId('preview-variants')).toBeFocused();
});
