import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '../../../src/i18n/languages';

// Every key present and non-empty in every locale, with the same {{variables}} (spec §1: five
// complete languages). Keys any feature adds are checked too.
const dir = path.resolve(__dirname, '../../../src/i18n/locales');
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') for (const [k, v] of flatten(value, full)) out.set(k, v);
    else out.set(full, value);
  }
  return out;
}

const variables = (text: unknown) => [...String(text).matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

const locales = new Map(
  SUPPORTED_LANGUAGES.map((lng) => [lng, flatten(JSON.parse(readFileSync(path.join(dir, `${lng}.json`), 'utf8')) as Tree)]),
);

describe('locales', () => {
  it('has exactly the five locale files', () => {
    expect(readdirSync(dir).filter((f) => f.endsWith('.json')).sort()).toEqual(SUPPORTED_LANGUAGES.map((l) => `${l}.json`).sort());
  });

  const allKeys = new Set([...locales.values()].flatMap((m) => [...m.keys()]));

  it.each(SUPPORTED_LANGUAGES)('%s has every key, each a non-empty string', (lng) => {
    const entries = locales.get(lng)!;
    const missing = [...allKeys].filter((key) => !entries.has(key));
    const empty = [...entries].filter(([, value]) => typeof value !== 'string' || value.trim() === '').map(([key]) => key);
    expect({ missing, empty }).toEqual({ missing: [], empty: [] });
  });

  it('interpolation variables are the same in every locale', () => {
    const reference = locales.get('en-US')!;
    const differing: string[] = [];
    for (const [lng, entries] of locales) {
      for (const [key, value] of entries) {
        if (reference.has(key) && variables(value).join() !== variables(reference.get(key)).join()) differing.push(`${lng}:${key}`);
      }
    }
    expect(differing).toEqual([]);
  });

  it('translations are real: most strings differ from English', () => {
    const english = locales.get('en-US')!;
    for (const lng of SUPPORTED_LANGUAGES.filter((l) => l !== 'en-US')) {
      const entries = locales.get(lng)!;
      const same = [...entries].filter(([key, value]) => value === english.get(key)).length;
      expect(same / entries.size).toBeLessThan(0.15);
    }
  });
});
