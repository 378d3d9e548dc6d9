import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage, languageFromBrowser, languageFromPageTag } from '../../../src/i18n/detect-language';

describe('language detection order (spec §9)', () => {
  it('a stored choice wins', () => {
    expect(detectLanguage({ stored: 'th-TH', browser: ['vi-VN'], pageTag: 'zh-CN' })).toBe('th-TH');
  });

  it('an unknown stored value is ignored', () => {
    expect(detectLanguage({ stored: 'fr-FR', browser: ['id'], pageTag: null })).toBe('id-ID');
  });

  it('then the browser language by prefix, anything else English', () => {
    expect(languageFromBrowser(['zh-TW'])).toBe('zh-CN');
    expect(languageFromBrowser(['zh'])).toBe('zh-CN');
    expect(languageFromBrowser(['vi'])).toBe('vi-VN');
    expect(languageFromBrowser(['th-TH'])).toBe('th-TH');
    expect(languageFromBrowser(['id-ID', 'en'])).toBe('id-ID');
    expect(languageFromBrowser(['fr-FR', 'zh-CN'])).toBe('en-US');
    expect(languageFromBrowser(['en-GB'])).toBe('en-US');
  });

  it('then the page lang tag, then zh-CN', () => {
    expect(detectLanguage({ stored: null, browser: [], pageTag: 'vi-VN' })).toBe('vi-VN');
    expect(languageFromPageTag('th')).toBe('th-TH');
    expect(detectLanguage({ stored: null, browser: [], pageTag: 'fr' })).toBe('zh-CN');
    expect(detectLanguage({ stored: undefined, browser: [''], pageTag: undefined })).toBe('zh-CN');
  });
});

describe('the real i18next setup follows the same order and caches the result', () => {
  const languages = vi.spyOn(navigator, 'languages', 'get');

  beforeEach(() => {
    localStorage.clear();
    vi.resetModules();
  });

  afterEach(() => languages.mockReset());

  async function start() {
    const module = await import('../../../src/i18n/i18n');
    await module.initI18n();
    return module;
  }

  it('uses the stored choice first', async () => {
    localStorage.setItem('language', 'id-ID');
    languages.mockReturnValue(['vi-VN']);
    const { i18n } = await start();
    expect(i18n.resolvedLanguage).toBe('id-ID');
    expect(i18n.t('nav.settings')).toBe('Pengaturan');
  });

  it('maps the browser language and stores it', async () => {
    languages.mockReturnValue(['vi']);
    const { i18n } = await start();
    expect(i18n.resolvedLanguage).toBe('vi-VN');
    expect(localStorage.getItem('language')).toBe('vi-VN');
    expect(document.documentElement.lang).toBe('vi-VN');
  });

  it('other browser languages get English', async () => {
    languages.mockReturnValue(['de-DE']);
    const { i18n } = await start();
    expect(i18n.resolvedLanguage).toBe('en-US');
  });

  it('without a browser language the page tag decides', async () => {
    languages.mockReturnValue([]);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('');
    document.documentElement.lang = 'th-TH';
    const { i18n } = await start();
    expect(i18n.resolvedLanguage).toBe('th-TH');
  });

  it('changeLanguage switches live and remembers', async () => {
    languages.mockReturnValue(['en-US']);
    const { i18n, changeLanguage } = await start();
    await changeLanguage('zh-CN');
    expect(i18n.t('nav.settings')).toBe('设置');
    expect(localStorage.getItem('language')).toBe('zh-CN');
  });
});
