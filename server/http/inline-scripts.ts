// The CSP's allowance for the PWA's inline boot script (scripts/vite-boot-script.ts): the SHA-256
// of each inline <script> in the built index.html, read when the server starts. Hashes, not
// 'unsafe-inline': an injected script still cannot run.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/** CSP source expressions ('sha256-…') for the inline scripts of an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  // Browsers hash the element's text as parsed, where line breaks are normalised to \n.
  return [...html.matchAll(INLINE_SCRIPT)]
    .map((m) => m[1]!.replace(/\r\n?/g, '\n'))
    .filter((code) => code.trim() !== '')
    .map((code) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
}

/** The hashes for the built PWA in `staticDir`; none when it has not been built. */
export function pwaInlineScriptHashes(staticDir: string): string[] {
  const index = path.join(staticDir, 'index.html');
  return existsSync(index) ? inlineScriptHashes(readFileSync(index, 'utf8')) : [];
}
