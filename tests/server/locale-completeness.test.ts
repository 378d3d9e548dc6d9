import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '../../shared/i18n/languages.js';
import { NAMESPACES } from '../../server/i18n/server-i18n.js';
import { checkCompleteness, type Dictionary } from '../support/locale-completeness.js';

// The server's dictionaries pass the PWA's checks: in every language every key, each a non-empty
// string, with the same {{variables}} as Chinese. Separators alone may be blank: Chinese joins
// sentences with nothing, Thai its list items with a space.
const dir = path.resolve(__dirname, '../../server/locales');

describe('server locales', () => {
  it('has one folder per language, each with one file per dictionary', () => {
    expect(readdirSync(dir).sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
    for (const language of SUPPORTED_LANGUAGES) {
      expect(readdirSync(path.join(dir, language)).sort(), language).toEqual(
        NAMESPACES.map((ns) => `${ns}.json`).sort(),
      );
    }
  });

  describe.each(NAMESPACES)('%s', (namespace) => {
    const dictionaries = new Map(
      SUPPORTED_LANGUAGES.map((language) => [
        language,
        JSON.parse(readFileSync(path.join(dir, language, `${namespace}.json`), 'utf8')) as Dictionary,
      ]),
    );
    checkCompleteness(dictionaries, {
      reference: 'zh-CN',
      blankAllowed: (key) => key.startsWith('separators.'),
    });
  });
});

describe('server dictionaries', () => {
  // A sentence the upscale service says as the main API does is read from messages.json; a key
  // both files hold must carry a sentence of the upscale service's own.
  it.each(SUPPORTED_LANGUAGES)('upscale.json copies no entry of messages.json (%s)', (language) => {
    const read = (namespace: string) =>
      JSON.parse(readFileSync(path.join(dir, language, `${namespace}.json`), 'utf8')) as Record<string, unknown>;
    const main = read('messages');
    const upscale = read('upscale');
    const copies = Object.keys(upscale).filter((key) => main[key] === upscale[key]);
    expect(copies).toEqual([]);
  });
});
