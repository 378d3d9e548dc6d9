// The words a sheet may use, in all five languages at once (a Thai team may export a sheet with
// Chinese headers): each field's header and label, the synonyms each dictionary lists under
// collections.headerWords, the presets' labels, the words that tell a model image from a
// pattern image in a file name, and the override cells' words (override-words.ts). Built once from
// the dictionaries' own strings, never copied here.
import { CHOICE_FIELDS, CHOICE_FIELD_NAMES, type ChoiceField } from '../../../shared/fabric/fabric-fields';
import type { Language } from '../../../shared/i18n/languages';
import { buildOverrideWords, type OverrideLanguageWords, type OverrideWords } from './override-words';
import { SHEET_FIELDS, type ImageField, type SheetField } from './sheet-fields';
import { normalizeWord, splitWords } from './words';

/** The part of one language's dictionary the vocabulary reads. */
export type LanguageWords = OverrideLanguageWords & {
  videoGeneration: {
    fields: Partial<Record<string, string>>;
    presets: Partial<Record<ChoiceField, Partial<Record<string, string>>>>;
  };
  collections: {
    headers: Record<SheetField, string>;
    headerWords: Partial<Record<SheetField, string>>;
    imageRoles: Record<'model' | 'pattern', string>;
  };
};

export type ImageRole = 'model' | 'pattern';

export interface Vocabulary {
  /** A normalized header word → its field. */
  headers: Map<string, SheetField>;
  /** Per choice field, a normalized preset word → its preset key. */
  presets: Record<ChoiceField, Map<string, string>>;
  /** A normalized file-name word → the role of the image. */
  roles: Map<string, ImageRole>;
  /** The template's headers, per language. */
  templateHeaders: Record<Language, Record<SheetField, string>>;
  /** The words an override cell may use. */
  overrides: OverrideWords;
}

export const IMAGE_ROLE_FIELD: Record<ImageRole, ImageField> = {
  model: 'model_images',
  pattern: 'pattern_images',
};

export function buildVocabulary(dictionaries: Record<Language, LanguageWords>): Vocabulary {
  const headers = new Map<string, SheetField>();
  const presets = Object.fromEntries(
    CHOICE_FIELD_NAMES.map((f) => [f, new Map<string, string>()]),
  ) as Vocabulary['presets'];
  const roles = new Map<string, ImageRole>();
  const add = (word: string, field: SheetField) => {
    const key = normalizeWord(word);
    if (key && !headers.has(key)) headers.set(key, field);
  };
  // The field ids themselves ("fabric_name") and the preset keys ("opaque") are words too.
  for (const field of SHEET_FIELDS) add(field, field);
  for (const field of CHOICE_FIELD_NAMES)
    for (const key of CHOICE_FIELDS[field]) presets[field].set(normalizeWord(key), key);
  for (const role of ['model', 'pattern'] as const) roles.set(role, role);

  const entries = Object.entries(dictionaries) as [Language, LanguageWords][];
  // Headers first in every language, then labels, then synonyms: an exact header wins.
  for (const [, words] of entries)
    for (const field of SHEET_FIELDS) add(words.collections.headers[field], field);
  for (const [, words] of entries)
    for (const field of SHEET_FIELDS) {
      const label = words.videoGeneration.fields[field];
      if (label) add(label, field);
    }
  for (const [, words] of entries)
    for (const field of SHEET_FIELDS)
      for (const w of splitWords(words.collections.headerWords[field] ?? '')) add(w, field);
  for (const [, words] of entries) {
    for (const field of CHOICE_FIELD_NAMES) {
      for (const [key, label] of Object.entries(words.videoGeneration.presets[field] ?? {})) {
        const word = label ? normalizeWord(label) : '';
        if (word && !presets[field].has(word)) presets[field].set(word, key);
      }
    }
    for (const role of ['model', 'pattern'] as const)
      for (const w of splitWords(words.collections.imageRoles[role])) if (!roles.has(w)) roles.set(w, role);
  }
  const templateHeaders = Object.fromEntries(
    entries.map(([lng, words]) => [lng, words.collections.headers]),
  ) as Vocabulary['templateHeaders'];
  const overrides = buildOverrideWords(entries.map(([, words]) => words));
  return { headers, presets, roles, templateHeaders, overrides };
}

/** The preset key a cell names, or undefined when it names none (it then goes as custom text). */
export function presetOf(vocabulary: Vocabulary, field: ChoiceField, value: string): string | undefined {
  return vocabulary.presets[field].get(normalizeWord(value));
}
