// Server messages in the PWA's five languages, chosen from Accept-Language (the PWA sends its
// current language). Chinese is the product's default language. The sentences are the "messages"
// dictionary (server/locales/<language>/messages.json); the Chinese file names the keys.
import { FALLBACK_LANGUAGE, SUPPORTED_LANGUAGES, type Language } from '../../shared/i18n/languages.js';
import type messagesZh from '../locales/zh-CN/messages.json';
import { readDictionary, translate, type Vars } from '../i18n/server-i18n.js';

export type Locale = Language;

export type MessageKey = keyof typeof messagesZh;

export const LOCALES: readonly Locale[] = SUPPORTED_LANGUAGES;

/** Picks the first supported language of an Accept-Language header; Chinese when none matches. */
export function localeFrom(acceptLanguage: string | undefined): Locale {
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '')
    .filter(Boolean);
  for (const tag of wanted) {
    const prefix = tag.slice(0, 2);
    const match = LOCALES.find((l) => l.slice(0, 2).toLowerCase() === prefix);
    if (match) return match;
  }
  return FALLBACK_LANGUAGE;
}

export function message(key: MessageKey, locale: Locale, vars: Vars = {}): string {
  return translate('messages', locale, key, vars);
}

const dictionaries = Object.fromEntries(
  LOCALES.map((locale) => [locale, readDictionary(locale, 'messages')]),
) as Record<Locale, Record<MessageKey, string>>;

export const messageKeys = Object.keys(dictionaries[FALLBACK_LANGUAGE]) as MessageKey[];
/** A key made at run time (a stored error kind, a provider's failure) that names a message. */
export const isMessageKey = (key: string): key is MessageKey => (messageKeys as string[]).includes(key);
/** Every message as written, by key and language. */
export const rawCatalogue: Record<MessageKey, Record<Locale, string>> = Object.fromEntries(
  messageKeys.map((key) => [
    key,
    Object.fromEntries(LOCALES.map((locale) => [locale, dictionaries[locale][key]])),
  ]),
) as Record<MessageKey, Record<Locale, string>>;
