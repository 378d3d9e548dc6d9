// The server's words: one JSON file per language and dictionary (server/locales/<language>/
// <namespace>.json), read at start by an i18next instance of the server's own, so the first
// request already finds every string. The languages are the list both runtimes share; every file
// holds every key (tests/server/locale-completeness.test.ts).
import { readFileSync } from 'node:fs';
import { createInstance, type ResourceKey } from 'i18next';
import { FALLBACK_LANGUAGE, SUPPORTED_LANGUAGES, type Language } from '../../shared/i18n/languages.js';

export const NAMESPACES = ['messages', 'upscale', 'local-engine'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Values for a string's {{variables}}. */
export type Vars = Record<string, string | number>;

const LOCALES_DIR = new URL('../locales/', import.meta.url);

/** One dictionary as its file holds it. */
export function readDictionary(language: Language, namespace: Namespace): Record<string, ResourceKey> {
  return JSON.parse(readFileSync(new URL(`${language}/${namespace}.json`, LOCALES_DIR), 'utf8')) as Record<
    string,
    ResourceKey
  >;
}

const i18n = createInstance();
void i18n.init({
  resources: Object.fromEntries(
    SUPPORTED_LANGUAGES.map((language) => [
      language,
      Object.fromEntries(NAMESPACES.map((ns) => [ns, readDictionary(language, ns)])),
    ]),
  ),
  initAsync: false,
  lng: FALLBACK_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  fallbackLng: false,
  ns: [...NAMESPACES],
  defaultNS: false,
  interpolation: {
    // Replies are JSON and plain text, never HTML; values stay as written.
    escapeValue: false,
  },
  // A value the caller did not give stays visible as "{name}" rather than vanishing.
  missingInterpolationHandler: (_text: string, match: RegExpExecArray) =>
    `{${(match[1] ?? '').split(',')[0]!.trim()}}`,
  returnNull: false,
});
// "{{name, capitalise}}": the value with its first letter made a capital, for languages that begin
// a sentence with one (the built-in engine starts sentences with the designer's own words).
i18n.services.formatter?.add('capitalise', (value: unknown) => {
  const text = String(value);
  return text.charAt(0).toUpperCase() + text.slice(1);
});

/**
 * A string of `namespace` in `language`, its {{variables}} filled from `vars`. The values go in as
 * `replace`, so a variable's name never collides with one of i18next's own options (count, context…);
 * with nesting off, a value holding "$t(…)" (a designer's own words) is written as it is.
 */
export function translate(namespace: Namespace, language: Language, key: string, vars: Vars = {}): string {
  return i18n.t(key, { lng: language, ns: namespace, replace: vars, nest: false });
}

/** A counted string: its plural form chosen by `count` in `language`'s rules, {{count}} filled too. */
export function translateCount(
  namespace: Namespace,
  language: Language,
  key: string,
  count: number,
  vars: Vars = {},
): string {
  return i18n.t(key, { lng: language, ns: namespace, count, replace: { ...vars, count }, nest: false });
}

/** A section or list of a dictionary as a whole (a table of words, a list of phrases). */
export function translateObject<T>(namespace: Namespace, language: Language, key: string): T {
  return i18n.t(key, { lng: language, ns: namespace, returnObjects: true }) as T;
}
