// Spelling of the built-in text polish: Hunspell dictionaries from the npm registry through nspell
// (dictionary-en for English, dictionary-vi for Vietnamese). Chinese, Thai and Indonesian have no
// dictionary here, and the result says so instead of pretending. Fabric and fashion words that a
// general dictionary lacks (elastane, lyocell, bouclé, …) are known words, never "corrected", and
// can be suggested ("chifon" -> "chiffon"). A word is corrected only when the dictionary's first
// suggestion is one or two edits away and fits the word's case; otherwise it is left as written and
// listed as not in the dictionary.
import nspell from 'nspell';
import type { Language } from '../capabilities.js';

/** The languages with a dictionary; the others are checked by nobody. */
export type DictionaryLanguage = 'en-US' | 'vi-VN';

export type SpellingReport =
  | { checked: true; dictionary: DictionaryLanguage }
  /** The text's language has no dictionary here: its spelling was not checked. */
  | { checked: false; language: Language };

export interface SpellingFix {
  from: string;
  to: string;
}

export interface SpellingResult {
  text: string;
  report: SpellingReport;
  fixes: SpellingFix[];
  /** Words the dictionary does not know and that were left as written (no safe suggestion). */
  unknown: string[];
}

/** Trade words a general dictionary lacks or would "correct" (lower case; matched case-insensitively). */
export const FABRIC_WORDS = [
  'chiffon', 'organza', 'jacquard', 'viscose', 'elastane', 'spandex', 'lycra', 'lyocell', 'tencel', 'modal', 'cupro',
  'georgette', 'charmeuse', 'crepe', 'crêpe', 'crepon', 'batiste', 'voile', 'chambray', 'seersucker', 'poplin', 'twill',
  'gabardine', 'boucle', 'bouclé', 'tulle', 'jersey', 'interlock', 'ponte', 'scuba', 'neoprene', 'taffeta', 'dupioni',
  'shantung', 'habotai', 'dobby', 'ottoman', 'pique', 'piqué', 'velour', 'velvet', 'corduroy', 'denim', 'chenille',
  'melange', 'mélange', 'lurex', 'sequin', 'sequins', 'brocade', 'damask', 'eyelet', 'broderie', 'guipure', 'polyamide',
  'polyester', 'acetate', 'ramie', 'cashmere', 'merino', 'mohair', 'alpaca', 'angora', 'microfiber', 'microfibre',
  'sherpa', 'minky', 'tricot', 'plisse', 'plissé', 'ripstop', 'gauze', 'cheesecloth', 'tweed', 'herringbone',
  'houndstooth', 'ikat', 'batik', 'shibori', 'gingham', 'madras', 'argyle', 'colourway', 'colorway', 'colourways',
  'colorways', 'handfeel', 'drapey', 'drapy', 'gsm', 'greige', 'selvedge', 'selvage', 'stretchy', 'breathable',
  'mercerised', 'mercerized', 'sanforised', 'sanforized', 'peached', 'brushed', 'slub', 'flocked', 'devore', 'dévoré',
  'crinkle', 'swatch', 'swatches', 'lookbook', 'athleisure', 'loungewear', 'activewear', 'swimwear', 'bodycon',
];

const DICTIONARIES: Record<DictionaryLanguage, () => Promise<{ aff: Uint8Array; dic: Uint8Array }>> = {
  'en-US': async () => (await import('dictionary-en')).default,
  'vi-VN': async () => (await import('dictionary-vi')).default,
};

const loaded = new Map<DictionaryLanguage, Promise<ReturnType<typeof nspell>>>();

/** One checker per language for the process, loaded on first use (English: about 150 ms). */
function checker(language: DictionaryLanguage): Promise<ReturnType<typeof nspell>> {
  let spell = loaded.get(language);
  if (!spell) {
    spell = DICTIONARIES[language]().then(({ aff, dic }) => {
      const made = nspell(Buffer.from(aff), Buffer.from(dic));
      for (const word of FABRIC_WORDS) made.add(word);
      return made;
    });
    loaded.set(language, spell);
    // A failed load is tried again next time.
    spell.catch(() => loaded.delete(language));
  }
  return spell;
}

const HAN = /\p{Script=Han}/u;
const THAI = /\p{Script=Thai}/u;
/** Letters only Vietnamese uses among our languages (ă â đ ê ô ơ ư and the tone marks on vowels). */
const VIETNAMESE = /[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/iu;

/**
 * Which language the text is written in, for its dictionary: the script decides Chinese and Thai,
 * Vietnamese letters decide Vietnamese; plain Latin text is English unless the writer works in
 * Indonesian (whose words an English dictionary would "correct").
 */
export function textLanguage(text: string, itemLanguage: Language): Language {
  if (HAN.test(text)) return 'zh-CN';
  if (THAI.test(text)) return 'th-TH';
  if (VIETNAMESE.test(text)) return 'vi-VN';
  return itemLanguage === 'id-ID' ? 'id-ID' : 'en-US';
}

export function hasDictionary(language: Language): language is DictionaryLanguage {
  return language in DICTIONARIES;
}

/** Damerau-Levenshtein distance (optimal string alignment), for short words. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

const isLower = (w: string) => w === w.toLocaleLowerCase();
const capitalised = (w: string) => /^\p{Lu}\p{Ll}*$/u.test(w);

/** At most this many unknown words are looked up in one text (a suggestion costs up to ~0.3 s). */
const MAX_LOOKUPS = 200;
/** Latin words (with Vietnamese letters), apostrophes and inner hyphens included. */
const WORD = /(?<![\p{L}\p{N}_])(\p{L}[\p{L}\p{M}'’]*(?:-\p{L}[\p{L}\p{M}'’]*)*)(?![\p{L}\p{N}_])/gu;

/**
 * Corrects the spelling of `text` in `language` where there is a dictionary for it. Words with
 * digits, all-capital words (GSM, UV), words with capitals inside (iPhone) and capitalised words
 * the dictionary lacks (names, brands) are left alone.
 */
export async function correctSpelling(text: string, language: Language, signal?: AbortSignal): Promise<SpellingResult> {
  if (!hasDictionary(language)) return { text, report: { checked: false, language }, fixes: [], unknown: [] };
  const spell = await checker(language);
  const fixes: SpellingFix[] = [];
  const unknown: string[] = [];
  const decided = new Map<string, string | null>();
  let lookups = 0;
  const out = text.replace(WORD, (word: string) => {
    if (word.length < 3 || (word.length > 1 && word === word.toLocaleUpperCase()) || /\p{Lu}/u.test(word.slice(1))) return word;
    if (HAN.test(word) || THAI.test(word)) return word;
    if (spell.correct(word)) return word;
    let fix = decided.get(word);
    if (fix === undefined) {
      signal?.throwIfAborted();
      fix = null;
      if (lookups++ < MAX_LOOKUPS && !capitalised(word)) {
        const [first] = spell.suggest(word);
        const fits = first !== undefined && (isLower(word) ? isLower(first) : true);
        const near = first !== undefined && editDistance(word.toLocaleLowerCase(), first.toLocaleLowerCase()) <= 2;
        // Vietnamese: only a suggestion that is the one choice (tone marks are too easy to guess wrong).
        const sure = language !== 'vi-VN' || spell.suggest(word).length === 1;
        if (fits && near && sure) fix = first;
      }
      decided.set(word, fix);
      if (fix === null && !unknown.includes(word)) unknown.push(word);
    }
    if (fix === null) return word;
    fixes.push({ from: word, to: fix });
    return fix;
  });
  return { text: out, report: { checked: true, dictionary: language }, fixes, unknown };
}
