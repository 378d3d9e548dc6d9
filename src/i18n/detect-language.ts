// Language detection order (spec §9): the stored choice, then the browser's language (zh, vi, th
// or id by prefix, anything else English), then the page's lang tag, then zh-CN.
import { FALLBACK_LANGUAGE, isLanguage, type Language } from './languages';

const PREFIXES: ReadonlyArray<readonly [string, Language]> = [
  ['zh', 'zh-CN'],
  ['vi', 'vi-VN'],
  ['th', 'th-TH'],
  ['id', 'id-ID'],
];

/** Maps a browser language tag to ours; undefined when the browser reports none. */
export function languageFromBrowser(tags: readonly string[]): Language | undefined {
  const first = tags.find((tag) => tag.trim() !== '');
  if (!first) return undefined;
  const primary = first.toLowerCase().split(/[-_]/)[0];
  return PREFIXES.find(([prefix]) => prefix === primary)?.[1] ?? 'en-US';
}

/** A page tag counts only when it names one of our languages exactly or by prefix. */
export function languageFromPageTag(tag: string | null | undefined): Language | undefined {
  if (!tag) return undefined;
  if (isLanguage(tag)) return tag;
  const primary = tag.toLowerCase().split(/[-_]/)[0];
  return PREFIXES.find(([prefix]) => prefix === primary)?.[1] ?? (primary === 'en' ? 'en-US' : undefined);
}

export interface DetectionSources {
  stored: string | null | undefined;
  browser: readonly string[];
  pageTag: string | null | undefined;
}

export function detectLanguage(sources: DetectionSources): Language {
  if (isLanguage(sources.stored)) return sources.stored;
  return languageFromBrowser(sources.browser) ?? languageFromPageTag(sources.pageTag) ?? FALLBACK_LANGUAGE;
}

/** The browser's own sources, read the way i18next-browser-languagedetector does. */
export function browserLanguages(): string[] {
  if (typeof navigator === 'undefined') return [];
  if (navigator.languages?.length) return [...navigator.languages];
  return navigator.language ? [navigator.language] : [];
}
