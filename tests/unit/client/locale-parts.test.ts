// Each language's strings in two parts (src/i18n/locale-parts.ts): without a session only the
// first screen's part is loaded; the signed-in pages' part comes with the app shell, and a
// language chosen afterwards comes whole.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../src/i18n/locales/en-US.json';
import { FIRST_SCREEN_KEYS, pickLocalePart } from '../../../src/i18n/locale-parts';

describe('locale parts', () => {
  it('split every string between the two parts, the sign-in screen first', () => {
    const first = pickLocalePart(en, 'first');
    const rest = pickLocalePart(en, 'rest');
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['auth', 'errors', 'settings']));
    expect(Object.keys(first.settings as object)).toEqual(['language']);
    expect(first).not.toHaveProperty('history');
    expect({ ...first, ...rest }).toEqual(en);
    expect(JSON.stringify(first).length).toBeLessThan(JSON.stringify(en).length / 2);
    expect(FIRST_SCREEN_KEYS).toContain('auth');
  });
});

describe('the i18next setup loads the parts it needs', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('language', 'en-US');
    vi.resetModules();
  });

  it('without a session: the first part; the rest with loadAllStrings; a later language whole', async () => {
    const module = await import('../../../src/i18n/i18n');
    await module.initI18n({ all: false });
    expect(module.i18n.t('auth.help.title')).toBe(en.auth.help.title);
    expect(module.i18n.exists('history.download')).toBe(false);
    await module.loadAllStrings();
    expect(module.i18n.t('history.download')).toBe(en.history.download);
    await module.changeLanguage('vi-VN');
    expect(module.i18n.exists('history.download')).toBe(true);
    expect(module.i18n.exists('auth.help.title')).toBe(true);
  });

  it('a language chosen on the sign-in screen gets its rest when the shell opens', async () => {
    const module = await import('../../../src/i18n/i18n');
    await module.initI18n({ all: false });
    await module.changeLanguage('th-TH');
    expect(module.i18n.exists('history.download')).toBe(false);
    await module.loadAllStrings();
    expect(module.i18n.exists('history.download')).toBe(true);
  });
});
