// The completeness checks every dictionary of the product passes, the PWA's (src/i18n/locales/)
// and the server's (server/locales/): every key in every language, each a non-empty string, with
// the same {{variables}} as the reference language. Registered as vitest cases by the caller's suite.
import { expect, it } from 'vitest';

/** A dictionary as its JSON file holds it: strings, nested sections and lists of strings. */
export type Dictionary = { [key: string]: unknown };

/** Every string of a dictionary by its dotted path; a list's items are numbered ("scenes.0"). */
export function flatten(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (tree && typeof tree === 'object') {
    for (const [key, value] of Object.entries(tree)) {
      const full = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === 'object') for (const [k, v] of flatten(value, full)) out.set(k, v);
      else out.set(full, value);
    }
  }
  return out;
}

/** The {{variables}} a string fills, sorted; a format after the name ({{name, capitalise}}) is ignored. */
export function variables(text: unknown): string[] {
  return [...String(text).matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!).sort();
}

export interface CompletenessOptions {
  /** The language whose variables the others must match. */
  reference: string;
  /**
   * Keys whose value may be blank or whitespace (a separator such as Chinese's empty one between
   * sentences); they must still be present and strings.
   */
  blankAllowed?: (key: string) => boolean;
}

/** Registers, in the current describe block, the completeness cases for `dictionaries` (language → dictionary). */
export function checkCompleteness(
  dictionaries: ReadonlyMap<string, Dictionary>,
  options: CompletenessOptions,
): void {
  const flat = new Map([...dictionaries].map(([language, tree]) => [language, flatten(tree)]));
  const allKeys = new Set([...flat.values()].flatMap((m) => [...m.keys()]));
  const blankAllowed = options.blankAllowed ?? (() => false);

  it.each([...flat.keys()])('%s has every key, each a non-empty string', (language) => {
    const entries = flat.get(language)!;
    const missing = [...allKeys].filter((key) => !entries.has(key));
    const empty = [...entries]
      .filter(([key, value]) => typeof value !== 'string' || (value.trim() === '' && !blankAllowed(key)))
      .map(([key]) => key);
    expect({ missing, empty }).toEqual({ missing: [], empty: [] });
  });

  it('interpolation variables are the same in every locale', () => {
    const reference = flat.get(options.reference)!;
    const differing: string[] = [];
    for (const [language, entries] of flat) {
      for (const [key, value] of entries) {
        if (reference.has(key) && variables(value).join() !== variables(reference.get(key)).join())
          differing.push(`${language}:${key}`);
      }
    }
    expect(differing).toEqual([]);
  });
}
