// A Vite plugin: `virtual:loom-locale/<language>-<part>` is one part of src/i18n/locales/<language>.json
// (src/i18n/locale-parts.ts says which keys). The chunks keep the language first in their names
// (assets/en-US-first-<hash>.js), so the service worker's locale rule and precache ignores match them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { pickLocalePart, type LocalePart } from '../src/i18n/locale-parts.js';

const VIRTUAL = /^virtual:loom-locale\/([a-z]{2}-[A-Z]{2})-(first|rest)$/;
const RESOLVED = /[\\/]src[\\/]i18n[\\/]locales[\\/]([a-z]{2}-[A-Z]{2})-(first|rest)\.js$/;

export function localeParts(root = process.cwd()): Plugin {
  return {
    name: 'loom-locale-parts',
    enforce: 'pre',
    // A file-like id beside the locale files (none exists on disk), so the chunk is named after it.
    resolveId(source) {
      const m = VIRTUAL.exec(source);
      return m ? path.resolve(root, 'src/i18n/locales', `${m[1]}-${m[2]}.js`) : null;
    },
    load(id) {
      const m = RESOLVED.exec(id);
      if (!m) return null;
      const language = m[1]!;
      const part = m[2] as LocalePart;
      const file = path.resolve(root, 'src/i18n/locales', `${language}.json`);
      this.addWatchFile(file);
      const strings = JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof pickLocalePart>[0];
      return `export default ${JSON.stringify(pickLocalePart(strings, part))};`;
    },
  };
}
