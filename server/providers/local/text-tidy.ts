// The text fixes a rule can make honestly, without a language model: whitespace, full-width
// letters and digits, punctuation width to suit the surrounding script (full-width in Chinese
// lines, half-width in Latin ones), a space between Chinese and Latin letters or digits (the
// usual zh-CN typesetting), and fabric terms ("180gsm" -> "180 g/m²", "poly" -> "polyester",
// "65 %cotton" -> "65% cotton"), and a capital letter to start a sentence in Latin text. Each fix
// is counted and kept as what it replaced, so the caller can show exactly what changed.

export type TidyRule =
  | 'whitespace'
  | 'full-width-alphanumerics'
  | 'punctuation-width'
  | 'cjk-latin-spacing'
  | 'fabric-terms'
  | 'percent-spacing'
  | 'capitalisation'
  | 'final-stop';

/** One change: the text it replaced and what replaced it. */
export interface TidyChange {
  rule: TidyRule;
  from: string;
  to: string;
}

export interface TidyResult {
  text: string;
  fixes: Partial<Record<TidyRule, number>>;
  /** Total number of fixes. */
  count: number;
  /** Each fix, in the order the rules made them. */
  changes: TidyChange[];
}

const HAN = '\\p{Script=Han}';
const HAN_RE = /\p{Script=Han}/u;
/** What a punctuation mark may follow to be in Chinese context: a Han character or closing CJK punctuation. */
const CHINESE_CONTEXT = `[${HAN}）」』】》]`;
const LATIN_OR_DIGIT = 'A-Za-z0-9';

const TO_FULL: Record<string, string> = { ',': '，', ';': '；', ':': '：', '!': '！', '?': '？', '(': '（', ')': '）' };
const TO_HALF: Record<string, string> = { '，': ',', '；': ';', '：': ':', '！': '!', '？': '?', '（': '(', '）': ')', '。': '.' };

class Tally {
  readonly fixes: Partial<Record<TidyRule, number>> = {};
  readonly changes: TidyChange[] = [];
  count = 0;

  add(rule: TidyRule, n = 1, change?: { from: string; to: string }): void {
    if (n <= 0) return;
    this.fixes[rule] = (this.fixes[rule] ?? 0) + n;
    this.count += n;
    if (change) this.changes.push({ rule, ...change });
  }

  /**
   * String.replace that counts the replacements that changed something. The replacer gets the
   * capture groups ('' for a group that did not take part); none of the patterns use named groups.
   */
  replace(text: string, pattern: RegExp, rule: TidyRule, replacer: (match: string, ...groups: string[]) => string): string {
    return text.replace(pattern, (match: string, ...rest: unknown[]) => {
      // rest = [...groups, offset, whole string]
      const groups = rest.slice(0, -2).map((g) => (typeof g === 'string' ? g : ''));
      const out = replacer(match, ...groups);
      if (out !== match) this.add(rule, 1, { from: match, to: out });
      return out;
    });
  }
}

function tidyWhitespace(text: string, t: Tally): string {
  // Line endings are one fix however many lines there are.
  let out = text.replace(/\r\n?/g, '\n');
  if (out !== text) t.add('whitespace', 1, { from: '\r\n', to: '\n' });
  out = t.replace(out, /[ \t\u00a0\u3000]+$/gm, 'whitespace', () => '');
  // Runs inside a line become one space; indentation at the start of a line is left alone.
  out = t.replace(out, /(?<=\S)[ \t\u00a0]{2,}(?=\S)/g, 'whitespace', () => ' ');
  out = t.replace(out, /\n{3,}/g, 'whitespace', () => '\n\n');
  const trimmed = out.trim();
  if (trimmed !== out) {
    const start = out.slice(0, out.length - out.trimStart().length);
    const end = out.slice(out.trimEnd().length);
    t.add('whitespace', 1, { from: `${start}…${end}`, to: '…' });
  }
  return trimmed;
}

function halfWidthAlphanumerics(text: string, t: Tally): string {
  return t.replace(text, /[Ａ-Ｚａ-ｚ０-９％]+/g, 'full-width-alphanumerics', (run) =>
    String.fromCharCode(...[...run].map((ch) => ch.charCodeAt(0) - 0xfee0)),
  );
}

function fabricTerms(text: string, t: Tally): string {
  // Weight units: 180gsm, 180 GSM, 180g/m2, 180 g/㎡, 180克/平方米 -> 180 g/m²
  let out = t.replace(
    text,
    /(\d+(?:[.,]\d+)?)\s*(?:gsm|g\s*\/\s*m\s*(?:2|²|\^2)|g\s*\/\s*㎡|g\s*\/\s*sqm|gm2|克\s*\/\s*平方米|克每平方米)(?![\p{L}\d])/giu,
    'fabric-terms',
    (_m, n) => `${n} g/m²`,
  );
  // "poly" alone is polyester in the trade ("poly/cotton", "65% poly"); "polyamide" etc. untouched.
  out = t.replace(out, /(?<![A-Za-z])(poly)(?![A-Za-z])/gi, 'fabric-terms', (_m, word) =>
    word === 'POLY' ? 'POLYESTER' : word[0] === 'P' ? 'Polyester' : 'polyester',
  );
  // "65 %" -> "65%", and "65%cotton" -> "65% cotton".
  out = t.replace(out, /(\d)[ \t]+%/g, 'percent-spacing', (_m, d) => `${d}%`);
  out = t.replace(out, /%(?=[A-Za-z])/g, 'percent-spacing', () => '% ');
  return out;
}

/** In a line with Chinese: half-width punctuation after Chinese becomes full-width. */
function punctuationInChineseLine(line: string, t: Tally): string {
  // Brackets around Chinese text first, so a mark after "）" is seen in Chinese context.
  let out = t.replace(line, /\(([^()]*\p{Script=Han}[^()]*)\)/gu, 'punctuation-width', (_m, inner) => `（${inner}）`);
  out = t.replace(out, new RegExp(`(${CHINESE_CONTEXT})[ \\t]*([,;:!?])[ \\t]*`, 'gu'), 'punctuation-width', (_m, han, p) => `${han}${TO_FULL[p] ?? p}`);
  // A full stop after Chinese (not a decimal point or an abbreviation inside Latin text).
  out = t.replace(out, new RegExp(`(${CHINESE_CONTEXT})[ \\t]*\\.(?![0-9A-Za-z])[ \\t]*`, 'gu'), 'punctuation-width', (_m, han) => `${han}。`);
  // Spaces around full-width punctuation are never wanted.
  out = t.replace(out, /[ \t]+([，。；：！？、（）])/g, 'punctuation-width', (_m, p) => p);
  out = t.replace(out, /([，。；：！？、（）])[ \t]+/g, 'punctuation-width', (_m, p) => p);
  return spaceAfterLatinComma(out, t);
}

/** In a line without Chinese: full-width punctuation becomes half-width, followed by a space. */
function punctuationInLatinLine(line: string, t: Tally): string {
  let out = t.replace(line, /[ \t]*([，；：！？。])[ \t]*(?=(\S?))/g, 'punctuation-width', (_m, p, next) =>
    `${TO_HALF[p] ?? p}${next ? ' ' : ''}`,
  );
  out = t.replace(out, /（([^（）]*)）/g, 'punctuation-width', (_m, inner) => `(${inner})`);
  // "cotton , soft" -> "cotton, soft"
  out = t.replace(out, /(?<=[A-Za-z0-9)%])[ \t]+([,;:!?])(?=\s|$)/g, 'punctuation-width', (_m, p) => p);
  return spaceAfterLatinComma(out, t);
}

/** "polyester,35%" -> "polyester, 35%" (after a letter or %, so "1,000" stays a number). */
function spaceAfterLatinComma(line: string, t: Tally): string {
  return t.replace(line, /(?<=[A-Za-z%])([,;])(?=[A-Za-z0-9])/g, 'punctuation-width', (_m, p) => `${p} `);
}

/** Words after which a full stop does not end a sentence. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'approx', 'vs', 'no', 'nr', 'ca', 'cf', 'incl', 'excl', 'min', 'max', 'dr', 'mr', 'mrs', 'ms', 'st']);

/**
 * In a line without Chinese: a sentence starts with a capital letter (the word after ". ", "! "
 * or "? "; the text's own first word is left as written). Not after an abbreviation or a single letter ("e.g. ",
 * "approx. 5", "A. Smith"), and not a word with a digit or a capital inside it ("iPhone", "x2").
 */
function capitaliseSentences(line: string, t: Tally): string {
  const capital = (word: string) => word.charAt(0).toLocaleUpperCase() + word.slice(1);
  const plain = (word: string) => /^\p{Ll}[\p{Ll}'’-]*$/u.test(word);
  return line.replace(/([\p{L}\p{N}.]*)([.!?])([ \t]+)(\p{Ll}[\p{L}\p{N}'’-]*)/gu, (match: string, before: string, stop: string, gap: string, word: string) => {
    const previous = before.toLowerCase().replace(/\.$/, '');
    if (stop === '.' && (ABBREVIATIONS.has(previous) || /^\p{L}$/u.test(previous) || /\d$/.test(previous) || previous.includes('.'))) return match;
    if (!plain(word)) return match;
    const to = capital(word);
    t.add('capitalisation', 1, { from: `${stop}${gap}${word}`, to: `${stop}${gap}${to}` });
    return `${before}${stop}${gap}${to}`;
  });
}

/**
 * Latin prose made of sentences ("… dresses. Very nice hand feel") ends with a full stop too. A
 * single phrase ("cotton, soft") or a list is left as it is.
 */
function finalStop(text: string, t: Tally): string {
  const lastLine = text.slice(text.lastIndexOf('\n') + 1);
  if (HAN_RE.test(lastLine) || !/\p{L}$/u.test(lastLine) || !/\p{L}[.!?][ \t]+\p{Lu}/u.test(lastLine)) return text;
  const lastWord = /(\S+)$/u.exec(lastLine)?.[1] ?? '';
  t.add('final-stop', 1, { from: lastWord, to: `${lastWord}.` });
  return `${text}.`;
}

function cjkLatinSpacing(line: string, t: Tally): string {
  let out = t.replace(line, new RegExp(`(${HAN})([${LATIN_OR_DIGIT}])`, 'gu'), 'cjk-latin-spacing', (_m, a, b) => `${a} ${b}`);
  out = t.replace(out, new RegExp(`([${LATIN_OR_DIGIT}%²])(${HAN})`, 'gu'), 'cjk-latin-spacing', (_m, a, b) => `${a} ${b}`);
  return out;
}

export function tidyText(text: string): TidyResult {
  const t = new Tally();
  let out = tidyWhitespace(text, t);
  out = halfWidthAlphanumerics(out, t);
  out = fabricTerms(out, t);
  out = out
    .split('\n')
    .map((line) =>
      HAN_RE.test(line) ? cjkLatinSpacing(punctuationInChineseLine(line, t), t) : capitaliseSentences(punctuationInLatinLine(line, t), t),
    )
    .join('\n');
  // The fixes above may leave doubled spaces or trailing ones behind; those are not counted again.
  out = out.replace(/(?<=\S)[ \t]{2,}(?=\S)/g, ' ').replace(/[ \t]+$/gm, '').trim();
  out = finalStop(out, t);
  return { text: out, fixes: t.fixes, count: t.count, changes: t.changes };
}

/** How sure the built-in engine may say it is: 0.2 for nothing done, up to 0.4 for many rule fixes. */
export function tidyConfidence(fixCount: number): number {
  return Math.round(Math.min(0.4, 0.2 + 0.02 * fixCount) * 100) / 100;
}
