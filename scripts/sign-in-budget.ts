// The sign-in route's JavaScript, read from a production build: the scripts index.html loads
// (its inline boot script, the entry), every chunk they import statically, the sign-in page's chunk with its
// own static imports, and the reader's first-screen strings (src/i18n/locale-parts.ts). Sizes are
// gzip level 9, as the build precompresses them. The service worker and workbox-window come after
// the page's load event (src/lib/offline/sw-registration.ts) and are not part of the route.
// Used by the build check (tests/build/sign-in-budget.spec.ts) and by `npm run audit`.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Issue 25: the sign-in route loads at most 170 KB (170 000 bytes) of JS, gzipped. */
export const SIGN_IN_JS_BUDGET_BYTES = 170_000;

export interface RouteScript {
  file: string;
  gzipBytes: number;
}

function gzipSize(dist: string, file: string): number {
  const full = path.join(dist, file);
  // The build writes .gz beside files of 1 KiB and more; smaller ones are compressed here.
  if (existsSync(`${full}.gz`)) return readFileSync(`${full}.gz`).length;
  return gzipSync(readFileSync(full), { level: 9 }).length;
}

function staticImports(dist: string, file: string): string[] {
  const code = readFileSync(path.join(dist, file), 'utf8');
  const dir = path.posix.dirname(file);
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*"(\.\/[^"]+\.js)"/g)].map((m) => path.posix.join(dir, m[1]!));
}

export function signInRouteScripts(dist: string, language = 'en-US'): { scripts: RouteScript[]; totalGzipBytes: number } {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const roots = [...html.matchAll(/<script[^>]*\bsrc="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const assets = readdirSync(path.join(dist, 'assets'));
  const chunk = (prefix: string) => {
    const found = assets.find((f) => f.startsWith(prefix) && /-[\w-]{6,}\.js$/.test(f) && /^[\w-]+\.js$/.test(f.slice(prefix.length)));
    if (!found) throw new Error(`no ${prefix}*.js in ${dist}/assets`);
    return `assets/${found}`;
  };
  roots.push(chunk('login-page-'), chunk(`${language}-first-`));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of staticImports(dist, file)) visit(next);
  };
  roots.forEach(visit);
  const scripts = [...seen].map((file) => ({ file, gzipBytes: gzipSize(dist, file) }));
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join('\n');
  if (inline.trim()) scripts.push({ file: 'index.html (inline)', gzipBytes: gzipSync(inline, { level: 9 }).length });
  scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { scripts, totalGzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0) };
}
