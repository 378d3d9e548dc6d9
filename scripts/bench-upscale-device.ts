// `node --import tsx scripts/bench-upscale-device.ts [--build DIR] [--full]`: on-device upscaling
// (onnxruntime-web, WebAssembly, in headless Chromium on this machine) against the server's exact
// path on the same images: ms per input megapixel on each side and the max / mean pixel
// difference. The images are bench-upscale.ts's generated photo and fabric. Both sides are warmed
// up on a small image first (model conversion, graph downloads, sessions), so the figures are the
// steady state. The device's figure is the worker's whole job (decode, tiles, encode); its
// inference-only time is shown beside it. --full adds the 2 MP fabric (several minutes on wasm).
// Build first: npx vite build --outDir /tmp/device-dist (the default --build).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import sharp from 'sharp';
import { chromiumArgs } from '../playwright.config.js';
import { startServer } from '../tests/e2e/server-process.js';
import {
  apiToken,
  deviceUpscale,
  localWorkerAsset,
  pixelDiff,
  serverUpscale,
} from '../tests/e2e/device-upscale-helpers.js';

const args = process.argv.slice(2);
const buildDir = path.resolve(args.includes('--build') ? args[args.indexOf('--build') + 1]! : '/tmp/device-dist');
const full = args.includes('--full');
const PORT = Number(process.env.BENCH_DEVICE_PORT ?? 8184);

function photoLike(w: number, h: number): Promise<Buffer> {
  const px = Buffer.alloc(w * h * 3);
  let s = 42;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const blob = Math.hypot(x - w * 0.4, y - h * 0.5) < h * 0.3 ? 60 : 0;
      for (let c = 0; c < 3; c++) {
        s = (s * 1103515245 + 12345) >>> 0;
        const v = 70 + (x / w) * 90 + (y / h) * 40 * (c + 1) + blob * (c === 1 ? -1 : 1) + ((s >>> 16) % 25) - 12;
        px[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } }).blur(0.8).png().toBuffer();
}

function fabricLike(w: number, h: number): Promise<Buffer> {
  const px = Buffer.alloc(w * h * 3);
  let s = 7;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const warp = ((x + y) >> 2) % 2 === 0;
      const stripe = Math.floor(x / 48) % 3;
      s = (s * 1103515245 + 12345) >>> 0;
      const yarn = ((s >>> 16) % 31) - 15 + 12 * Math.sin(y * 0.9 + (x >> 3));
      const base = warp ? [150, 60 + stripe * 40, 70] : [40, 70, 120 + stripe * 30];
      for (let c = 0; c < 3; c++) px[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base[c]! + yarn)));
    }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
}

async function main(): Promise<void> {
  const server = await startServer(PORT, {
    STATIC_DIR: buildDir,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'loom-bench-device-')),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    const token = await apiToken(server.url);
    const page = await browser.newPage();
    await page.goto(`${server.url}/config.json`);
    const worker = localWorkerAsset(buildDir);
    const cases: { name: string; png: Buffer; model: string }[] = [
      { name: 'photo 640x480 2x', png: await photoLike(640, 480), model: 'up2x-conservative' },
      { name: 'fabric 640x480 2x', png: await fabricLike(640, 480), model: 'up2x-conservative' },
      { name: 'photo 320x240 4x', png: await photoLike(320, 240), model: 'up4x-conservative' },
    ];
    if (full) cases.push({ name: 'fabric 1632x1224 (2 MP) 2x', png: await fabricLike(1632, 1224), model: 'up2x-conservative' });
    const warm = await photoLike(64, 64);
    for (const model of new Set(cases.map((c) => c.model))) {
      await serverUpscale(server.url, token, warm, model);
      await deviceUpscale(page, worker, token, warm, model);
    }
    const rows: string[] = [];
    for (const c of cases) {
      const meta = await sharp(c.png).metadata();
      const mp = (meta.width! * meta.height!) / 1e6;
      const s = await serverUpscale(server.url, token, c.png, c.model);
      const d = await deviceUpscale(page, worker, token, c.png, c.model);
      const diff = await pixelDiff(s.png, d.png);
      const row =
        `| ${c.name} | ${Math.round(s.ms / mp)} | ${Math.round(d.stats.totalMs / mp)} | ` +
        `${Math.round(d.stats.inferenceMs / mp)} | ${(d.stats.totalMs / s.ms).toFixed(1)}x | ` +
        `${d.stats.backend}, ${d.stats.threads} thread(s), ${d.stats.tiles} tiles of ≤${d.stats.tileSide} px, ${d.stats.strategy} | ` +
        `${diff.max} | ${diff.mean.toFixed(5)} |`;
      rows.push(row);
      process.stdout.write(`${row}\n`);
    }
    process.stdout.write(
      `\n| image | server ms/MP | device ms/MP | device inference ms/MP | device / server | device run | max diff | mean diff |\n` +
        `|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
