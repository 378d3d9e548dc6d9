// The product's five languages (spec §1), read by the PWA, its service worker and the server: a
// language is added here and as one JSON file per dictionary (src/i18n/locales/, server/locales/);
// the completeness tests then name every string it still lacks.
export const SUPPORTED_LANGUAGES = ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/** Chinese is the product's default: the language when nothing asked for is supported. */
export const FALLBACK_LANGUAGE: Language = 'zh-CN';

/** Each language's own name, as a language menu shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  'zh-CN': '简体中文',
  'en-US': 'English',
  'vi-VN': 'Tiếng Việt',
  'th-TH': 'ภาษาไทย',
  'id-ID': 'Bahasa Indonesia',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}
