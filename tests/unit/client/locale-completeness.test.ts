import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '../../../src/i18n/languages';
import { checkCompleteness, flatten, type Dictionary } from '../../support/locale-completeness';

// Every key present and non-empty in every locale, with the same {{variables}} (spec §1: five
// complete languages). Keys any feature adds are checked too.
const dir = path.resolve(__dirname, '../../../src/i18n/locales');

const dictionaries = new Map(
  SUPPORTED_LANGUAGES.map((lng) => [
    lng,
    JSON.parse(readFileSync(path.join(dir, `${lng}.json`), 'utf8')) as Dictionary,
  ]),
);

describe('locales', () => {
  it('has exactly the five locale files', () => {
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(SUPPORTED_LANGUAGES.map((l) => `${l}.json`).sort());
  });

  checkCompleteness(dictionaries, { reference: 'en-US' });

  it('translations are real: most strings differ from English', () => {
    const english = flatten(dictionaries.get('en-US'));
    for (const lng of SUPPORTED_LANGUAGES.filter((l) => l !== 'en-US')) {
      const entries = flatten(dictionaries.get(lng));
      const same = [...entries].filter(([key, value]) => value === english.get(key)).length;
      expect(same / entries.size).toBeLessThan(0.15);
    }
  });
});
