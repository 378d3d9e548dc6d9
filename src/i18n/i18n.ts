// i18next setup. Only the detected language (and the zh-CN fallback) are fetched, each as its own
// chunk, so the sign-in screen does not carry five dictionaries.
import i18next, { type BackendModule, type ResourceLanguage } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '../lib/session/storage-keys';
import { browserLanguages, languageFromBrowser, languageFromPageTag } from './detect-language';
import { FALLBACK_LANGUAGE, SUPPORTED_LANGUAGES, isLanguage, type Language } from './languages';

const loaders = import.meta.glob<{ default: ResourceLanguage }>('./locales/*.json');

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = loaders[`./locales/${language}.json`];
    if (!load) return callback(new Error(`no locale ${language}`), false);
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

export const i18n = i18next.createInstance();

let ready: Promise<unknown> | null = null;

/** Starts i18next once; resolves when the detected language's strings are loaded. */
export function initI18n(): Promise<unknown> {
  if (ready) return ready;
  const detector = new LanguageDetector();
  // The library's navigator detector returns the raw tag; the spec maps by prefix instead.
  detector.addDetector({ name: 'browserPrefix', lookup: () => languageFromBrowser(browserLanguages()) });
  detector.addDetector({
    name: 'pageTag',
    lookup: () => languageFromPageTag(typeof document === 'undefined' ? null : document.documentElement.lang),
  });
  i18n.on('languageChanged', (language) => {
    if (typeof document !== 'undefined') document.documentElement.lang = language;
  });
  ready = i18n
    .use(lazyLocales)
    .use(detector)
    .use(initReactI18next)
    .init({
      supportedLngs: [...SUPPORTED_LANGUAGES],
      fallbackLng: FALLBACK_LANGUAGE,
      load: 'currentOnly',
      nonExplicitSupportedLngs: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      detection: {
        order: ['localStorage', 'browserPrefix', 'pageTag'],
        lookupLocalStorage: STORAGE_KEYS.language,
        caches: ['localStorage'],
      },
      react: { useSuspense: true },
    });
  return ready;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : FALLBACK_LANGUAGE;
}

/** Switches the interface live and remembers the choice. */
export async function changeLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
  localStorage.setItem(STORAGE_KEYS.language, language);
}
