// The five interface languages (spec §1) with their own names, as a language menu shows them.
export const SUPPORTED_LANGUAGES = ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export const FALLBACK_LANGUAGE: Language = 'zh-CN';

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
