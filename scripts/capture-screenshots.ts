// Captures the manifest's screenshots (public/screenshots) from the real app: builds into a
// temporary folder, serves it with the companion server, and photographs the sign-in screen in a
// tablet (wide) and a phone (narrow) viewport with Debian's Chromium. `npm run screenshots`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../playwright.config.js';
import { startServer } from '../tests/e2e/server-process.js';

const outDir = mkdtempSync(path.join(tmpdir(), 'loom-shots-build-'));
execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
const server = await startServer(8131, { STATIC_DIR: outDir });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
try {
  mkdirSync('public/screenshots', { recursive: true });
  const shots = [
    { file: 'wide.png', viewport: { width: 1280, height: 800 }, scale: 1, lang: 'en-US' },
    { file: 'narrow.png', viewport: { width: 375, height: 667 }, scale: 2, lang: 'en-US' },
  ];
  for (const shot of shots) {
    const context = await browser.newContext({ viewport: shot.viewport, deviceScaleFactor: shot.scale, locale: shot.lang });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/login`);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1200);
    await page.screenshot({ path: path.join('public/screenshots', shot.file) });
    await context.close();
    process.stdout.write(`public/screenshots/${shot.file}\n`);
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(outDir, { recursive: true, force: true });
}
