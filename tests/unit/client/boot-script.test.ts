// index.html's inline boot script (src/boot/theme-init.js) and the route table the build gives it
// (scripts/vite-boot-script.ts): theme and spinner language before the first paint, and the
// opening route's chunks preloaded beside the entry script.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { routeChunks, type RouteChunks } from '../../../scripts/vite-boot-script';

const source = readFileSync(path.resolve('src/boot/theme-init.js'), 'utf8');

const TABLE: RouteChunks = {
  signIn: ['/assets/login-page-a.css', '/assets/login-page-a.js', '/assets/icons-a.js'],
  shell: ['/assets/app-shell-a.js', '/assets/icons-a.js'],
  pages: {
    '/': ['/assets/home-page-a.js'],
    '/history': ['/assets/history-page-a.css', '/assets/history-page-a.js'],
    '/collections/:id': ['/assets/collection-page-a.js'],
  },
  strings: {
    'en-US': ['/assets/en-US-first-a.js', '/assets/en-US-rest-a.js'],
    'vi-VN': ['/assets/vi-VN-first-a.js', '/assets/vi-VN-rest-a.js'],
  },
};

function runBoot(table: RouteChunks | null): void {
  // Indirect eval: the script runs at the top level, as the inline <script> does.
  (0, eval)(source.replace(/\bROUTE_CHUNKS\b(?=\);?\s*$)/, JSON.stringify(table)));
}

/** The boot script starts its preloads after the first frame, so the first paint comes first. */
function afterFirstFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

function preloads(): string[] {
  return [...document.head.querySelectorAll('link')].map(
    (l) => `${l.rel}${l.getAttribute('as') ? `:${l.getAttribute('as')}` : ''} ${l.getAttribute('href')}`,
  );
}

afterEach(() => {
  document.head.innerHTML = '';
  document.documentElement.removeAttribute('data-boot-route');
  localStorage.clear();
  window.location.hash = '';
});

describe('boot script', () => {
  it('applies the saved theme and the stored language before anything renders', () => {
    localStorage.setItem('theme', 'dark');
    localStorage.setItem('language', 'vi-VN');
    runBoot(null);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.dataset.themePreference).toBe('dark');
    expect(document.documentElement.dataset.bootLanguage).toBe('vi-VN');
    // Development: no route table, no preloads.
    expect(preloads()).toEqual([]);
  });

  it('preloads the sign-in page and the first part of the strings for a visitor, after the first frame', async () => {
    localStorage.setItem('language', 'en-US');
    window.location.hash = '#/history';
    runBoot(TABLE);
    // index.html shows the sign-in screen's brand side to a visitor (boot-spinner.css).
    expect(document.documentElement.dataset.bootRoute).toBe('sign-in');
    expect(preloads()).toEqual([]);
    await afterFirstFrame();
    expect(preloads()).toEqual([
      'preload:style /assets/login-page-a.css',
      'modulepreload /assets/login-page-a.js',
      'modulepreload /assets/icons-a.js',
      'modulepreload /assets/en-US-first-a.js',
    ]);
  });

  it('preloads the shell, the page of the path and all of the strings for a session, once each', async () => {
    localStorage.setItem('language', 'vi-VN');
    localStorage.setItem('isLoggedIn', 'true');
    localStorage.setItem('token', 't');
    window.location.hash = '#/history/?tab=videos';
    runBoot(TABLE);
    expect(document.documentElement.dataset.bootRoute).toBeUndefined();
    await afterFirstFrame();
    expect(preloads()).toEqual([
      'modulepreload /assets/app-shell-a.js',
      'modulepreload /assets/icons-a.js',
      'preload:style /assets/history-page-a.css',
      'modulepreload /assets/history-page-a.js',
      'modulepreload /assets/vi-VN-first-a.js',
      'modulepreload /assets/vi-VN-rest-a.js',
    ]);
  });

  it('preloads home for a path the router sends home', async () => {
    localStorage.setItem('language', 'en-US');
    localStorage.setItem('isLoggedIn', 'true');
    localStorage.setItem('token', 't');
    window.location.hash = '#/no-such-page';
    runBoot(TABLE);
    await afterFirstFrame();
    expect(preloads()).toContain('modulepreload /assets/home-page-a.js');
  });

  it('preloads the :id page for a numbered path under its route', async () => {
    localStorage.setItem('language', 'en-US');
    localStorage.setItem('isLoggedIn', 'true');
    localStorage.setItem('token', 't');
    window.location.hash = '#/collections/42';
    runBoot(TABLE);
    await afterFirstFrame();
    expect(preloads()).toContain('modulepreload /assets/collection-page-a.js');
    expect(preloads()).not.toContain('modulepreload /assets/home-page-a.js');
  });
});

describe('route table from a bundle', () => {
  const root = '/repo';
  const chunk = (
    fileName: string,
    facade: string | null,
    imports: string[] = [],
    css: string[] = [],
    isEntry = false,
  ) => ({
    type: 'chunk' as const,
    fileName,
    isEntry,
    facadeModuleId: facade && path.resolve(root, facade),
    imports,
    viteMetadata: { importedCss: new Set(css) },
  });
  const bundle = Object.fromEntries(
    [
      chunk('assets/index-1.js', 'index.html', ['assets/vendor-1.js'], ['assets/index-1.css'], true),
      chunk('assets/vendor-1.js', null),
      chunk('assets/shared-1.js', null, ['assets/vendor-1.js'], ['assets/shared-1.css']),
      chunk(
        'assets/login-page-1.js',
        'src/login-page.tsx',
        ['assets/shared-1.js', 'assets/vendor-1.js'],
        ['assets/login-page-1.css'],
      ),
      chunk('assets/app-shell-1.js', 'src/app-shell.tsx', ['assets/shared-1.js']),
      chunk('assets/home-page-1.js', 'src/home-page.tsx', ['assets/vendor-1.js']),
      chunk('assets/en-US-rest-1.js', 'src/i18n/locales/en-US-rest.js'),
      chunk('assets/en-US-first-1.js', 'src/i18n/locales/en-US-first.js'),
    ].map((c) => [c.fileName, c]),
  );

  it('lists each route chunk with its styles and imports, leaving out what the entry loads', () => {
    const table = routeChunks(
      bundle,
      { signIn: 'src/login-page.tsx', shell: ['src/app-shell.tsx'], pages: { '/': 'src/home-page.tsx' } },
      root,
      '/',
    );
    expect(table).toEqual({
      signIn: [
        '/assets/login-page-1.css',
        '/assets/login-page-1.js',
        '/assets/shared-1.css',
        '/assets/shared-1.js',
      ],
      shell: ['/assets/app-shell-1.js', '/assets/shared-1.css', '/assets/shared-1.js'],
      pages: { '/': ['/assets/home-page-1.js'] },
      strings: { 'en-US': ['/assets/en-US-first-1.js', '/assets/en-US-rest-1.js'] },
    });
  });

  it('fails the build when a route has no chunk of its own', () => {
    expect(() =>
      routeChunks(bundle, { signIn: 'src/missing.tsx', shell: ['src/app-shell.tsx'], pages: {} }, root, '/'),
    ).toThrow(/no chunk for src\/missing.tsx/);
  });
});
