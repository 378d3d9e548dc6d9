// Checks the production build in dist/ (run after `vite build`): the service worker, the web
// manifest with every installability field, and a precache holding the shell and route chunks
// but nothing heavy or runtime-cached.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';

const dist = path.resolve(process.env.BUILD_DIR ?? 'dist');
const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');

interface PrecacheEntry {
  url: string;
  revision: string | null;
}

/** The page modules of the lazy page table: each must be its own precached chunk. */
function lazyPageModules(): string[] {
  const table = readFileSync(path.resolve('src/app/routing/lazy-pages.ts'), 'utf8');
  const names = [...table.matchAll(/const load\w+ = \(\) => import\('([^']+)'\)/g)].map((m) =>
    path.basename(m[1] ?? ''),
  );
  if (names.length === 0) throw new Error('no lazy pages found in src/app/routing/lazy-pages.ts');
  return names;
}

function precacheEntries(): PrecacheEntry[] {
  const sw = read('sw.js');
  const match = /(\[\{"revision":[^\]]*\])/.exec(sw);
  if (!match?.[1]) throw new Error('no precache manifest found in sw.js');
  return JSON.parse(match[1]) as PrecacheEntry[];
}

test.describe('production build', () => {
  test('emits the service worker with the routing rules and update handling', () => {
    expect(existsSync(path.join(dist, 'sw.js'))).toBe(true);
    const sw = read('sw.js');
    expect(sw).toContain('SKIP_WAITING');
    expect(sw).toContain('loom-user-media');
    expect(sw).toContain('loom-locales');
    expect(sw).toContain('CACHE_URLS');
  });

  test('writes a manifest with every installability field and real icons', async () => {
    const manifest = JSON.parse(read('manifest.webmanifest')) as Record<string, unknown> & {
      icons: { src: string; sizes: string; purpose: string }[];
      screenshots: { src: string; sizes: string; form_factor: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Loom Studio',
      short_name: 'Loom',
      display: 'standalone',
      orientation: 'any',
      start_url: '/#/',
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    });
    expect(String(manifest.description).length).toBeGreaterThan(20);
    for (const purpose of ['any', 'maskable']) {
      for (const size of ['192x192', '512x512']) {
        const icon = manifest.icons.find((i) => i.purpose === purpose && i.sizes === size);
        expect(icon, `${purpose} ${size}`).toBeDefined();
        const meta = await sharp(path.join(dist, icon?.src ?? '')).metadata();
        expect(`${meta.width}x${meta.height}`).toBe(size);
      }
    }
    expect(manifest.screenshots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of manifest.screenshots) {
      const meta = await sharp(path.join(dist, shot.src)).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(shot.sizes);
    }
    const html = read('index.html');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    expect(html).toMatch(/<meta name="apple-mobile-web-app-capable" content="yes"/);
    expect(html).toMatch(/<link rel="apple-touch-icon"[^>]*href="\/icons\/apple-touch-icon-180.png"/);
    expect(html).toMatch(/<meta name="apple-mobile-web-app-title" content="Loom"/);
  });

  test('runs its boot script inline, with the chunks of the sign-in page and of every page to preload', () => {
    const html = read('index.html');
    expect(html).not.toMatch(/<script[^>]*src="\/theme-init\.js"/);
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(1);
    const assets = readdirSync(path.join(dist, 'assets'));
    for (const page of lazyPageModules()) {
      const chunk = assets.find((f) => f.startsWith(`${page}-`) && f.endsWith('.js'));
      expect(inline[0], page).toContain(`/assets/${chunk}`);
    }
    for (const strings of assets.filter((f) =>
      /^(zh-CN|en-US|vi-VN|th-TH|id-ID)-(first|rest)-[\w-]+\.js$/.test(f),
    )) {
      expect(inline[0]).toContain(`/assets/${strings}`);
    }
  });

  test("carries the sign-in screen's brand side in every language, with ids unique in the page", () => {
    const html = read('index.html');
    const brands = [...html.matchAll(/<div class="boot-brand" lang="([\w-]+)">([\s\S]*?<\/section>)<\/div>/g)];
    expect(brands.map((m) => m[1]).sort()).toEqual(['en-US', 'id-ID', 'th-TH', 'vi-VN', 'zh-CN']);
    for (const [, language, markup] of brands) {
      const strings = JSON.parse(readFileSync(path.resolve(`src/i18n/locales/${language}.json`), 'utf8')) as {
        app: { name: string };
        auth: { tagline: string; features: Record<string, string> };
      };
      expect(markup).toContain(`>${strings.auth.tagline}</p>`);
      expect(markup).toContain(strings.app.name);
      for (const feature of Object.values(strings.auth.features)) expect(markup).toContain(feature);
    }
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [, label] of html.matchAll(/aria-labelledby="([^"]+)"/g)) expect(ids).toContain(label);
  });

  test('emits no source maps and no reference to one', () => {
    const all = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? all(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    const files = all(dist);
    expect(files.filter((f) => /\.map(\.(br|gz))?$/.test(f))).toEqual([]);
    for (const file of files.filter((f) => /\.(js|css)$/.test(f))) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/^\/[/*]# sourceMappingURL=/m);
    }
  });

  test('precaches the shell and every route chunk, and nothing heavy', () => {
    const entries = precacheEntries();
    const urls = entries.map((e) => e.url);
    expect(urls).toContain('index.html');
    expect(urls).toContain('manifest.webmanifest');
    const assets = readdirSync(path.join(dist, 'assets'));
    const pages = lazyPageModules();
    expect(pages).toEqual(
      expect.arrayContaining(['login-page', 'app-shell', 'prompt-management-page', 'settings-page']),
    );
    for (const page of pages) {
      const chunk = assets.find((f) => f.startsWith(`${page}-`) && f.endsWith('.js'));
      expect(chunk, page).toBeDefined();
      expect(urls).toContain(`assets/${chunk}`);
    }
    for (const url of urls) {
      expect(url).not.toMatch(/\.(map|wasm|onnx)$/);
      expect(url).not.toMatch(/^assets\/(zh-CN|en-US|vi-VN|th-TH|id-ID)-/);
      // No single precached file over 600 kB: heavy optional assets load on demand.
      expect(statSync(path.join(dist, url)).size, url).toBeLessThan(600 * 1024);
    }
    const total = urls.reduce((sum, url) => sum + statSync(path.join(dist, url)).size, 0);
    console.log(`precache: ${entries.length} entries, ${(total / 1024).toFixed(1)} KiB`);
    expect(total).toBeLessThan(2 * 1024 * 1024);
  });
});
