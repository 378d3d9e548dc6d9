// i18next setup. Only the detected language is fetched, so the sign-in screen does not carry five
// dictionaries; and of it only the first screen's part (locale-parts.ts) until a signed-in page
// opens (loadAllStrings, from the lazy app shell) or a session exists at start. No fallback dictionary is fetched beside it: every locale holds
// every key (tests/unit/client/locale-completeness.test.ts), so an English reader never needed the
// zh-CN file (12 KB gzipped on the sign-in route). zh-CN stays the language when nothing is detected.
import i18next, { type BackendModule, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '../lib/session/storage-keys';
import { browserLanguages, detectLanguage } from './detect-language';
import { FALLBACK_LANGUAGE, SUPPORTED_LANGUAGES, isLanguage, type Language } from './languages';
import type { LocalePart } from './locale-parts';

type Strings = { default: ResourceLanguage };
// Literal imports, so the bundler makes each part its own chunk (scripts/vite-locale-parts.ts).
const loaders: Record<Language, Record<LocalePart, () => Promise<Strings>>> = {
  'zh-CN': { first: () => import('virtual:loom-locale/zh-CN-first'), rest: () => import('virtual:loom-locale/zh-CN-rest') },
  'en-US': { first: () => import('virtual:loom-locale/en-US-first'), rest: () => import('virtual:loom-locale/en-US-rest') },
  'vi-VN': { first: () => import('virtual:loom-locale/vi-VN-first'), rest: () => import('virtual:loom-locale/vi-VN-rest') },
  'th-TH': { first: () => import('virtual:loom-locale/th-TH-first'), rest: () => import('virtual:loom-locale/th-TH-rest') },
  'id-ID': { first: () => import('virtual:loom-locale/id-ID-first'), rest: () => import('virtual:loom-locale/id-ID-rest') },
};

/** Set once every string is wanted (a signed-in page): later languages load whole. */
let wantAll = false;
const restLoaded = new Set<Language>();

async function readStrings(language: Language): Promise<ResourceLanguage> {
  const first = (await loaders[language].first()).default;
  if (!wantAll) return first;
  const rest = (await loaders[language].rest()).default;
  restLoaded.add(language);
  // "rest" holds whole sections (settings included), so a shallow merge keeps every string.
  return { ...first, ...rest };
}

const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isLanguage(language)) return callback(new Error(`no locale ${language}`), false);
    readStrings(language).then(
      (strings) => callback(null, strings),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Loads the signed-in pages' strings of the current language (once); resolves when they are in. */
export async function loadAllStrings(): Promise<void> {
  wantAll = true;
  await addRest(currentLanguage());
}

/** A language whose first part came before every string was wanted gets the rest before use. */
async function addRest(language: Language): Promise<void> {
  if (restLoaded.has(language) || !i18n.hasResourceBundle(language, 'translation')) return;
  const rest = (await loaders[language].rest()).default;
  i18n.addResourceBundle(language, 'translation', rest, true, true);
  restLoaded.add(language);
}

export const i18n = i18next.createInstance();

let ready: Promise<unknown> | null = null;
let startLanguage: Language = FALLBACK_LANGUAGE;

/** The language initI18n chose, known before its strings are loaded. */
export function initialLanguage(): Language {
  return startLanguage;
}

/**
 * Starts i18next once; resolves when the detected language's strings are loaded: every string with
 * `all` (a session exists), else the first screen's.
 */
export function initI18n({ all = true }: { all?: boolean } = {}): Promise<unknown> {
  if (ready) return ready;
  wantAll = all;
  // Spec §9's order (stored choice, browser, page tag, zh-CN) in detect-language.ts; the result is
  // remembered like a choice, as i18next's detector with caches: ['localStorage'] did.
  const language = detectLanguage({
    stored: readStoredLanguage(),
    browser: browserLanguages(),
    pageTag: typeof document === 'undefined' ? null : document.documentElement.lang,
  });
  startLanguage = language;
  i18n.on('languageChanged', (language) => {
    if (typeof document !== 'undefined') document.documentElement.lang = language;
    if (isLanguage(language)) storeLanguage(language);
  });
  ready = i18n
    .use(lazyLocales)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: [...SUPPORTED_LANGUAGES],
      fallbackLng: false,
      load: 'currentOnly',
      nonExplicitSupportedLngs: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  return ready;
}

function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.language);
  } catch {
    return null; // storage blocked: detect from the browser
  }
}

function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(STORAGE_KEYS.language, language);
  } catch {
    // storage blocked: the choice lasts for this visit
  }
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : FALLBACK_LANGUAGE;
}

/** Switches the interface live and remembers the choice. */
export async function changeLanguage(language: Language): Promise<void> {
  if (wantAll) await addRest(language);
  await i18n.changeLanguage(language);
  localStorage.setItem(STORAGE_KEYS.language, language);
}
