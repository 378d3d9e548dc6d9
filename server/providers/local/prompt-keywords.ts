// The few words of a regeneration prompt the built-in engine can honour without a model: warmer,
// cooler, brighter, darker, softer, more vivid, black and white, and a colour name to lean toward,
// in any of the five languages. Everything else in the prompt is left to a real model.
import type { AdjustmentWord } from './catalogue.js';
import { NAMED_COLORS, type NamedColor } from './color-palette.js';
import { hexToRgb, rgbToLab } from './color-space.js';
import type { ToneAdjustment } from './tone-adjust.js';

export type ToneKeyword = 'warmer' | 'cooler' | 'brighter' | 'darker' | 'softer' | 'vivid' | 'mono';

export interface PromptKeywords {
  tones: ToneKeyword[];
  /** A colour the designer named, to tint toward. */
  color?: NamedColor;
}

const TONE_WORDS: Record<ToneKeyword, string[]> = {
  mono: ['black and white', 'black & white', 'b&w', 'monochrome', 'grayscale', 'greyscale', '黑白', 'đen trắng', 'ขาวดำ', 'hitam putih'],
  warmer: ['warm', 'warmer', 'warmth', '暖', 'ấm', 'อุ่น', 'hangat'],
  cooler: ['cool', 'cooler', 'cold', '冷', '清凉', 'mát', 'lạnh', 'เย็น', 'sejuk', 'dingin'],
  brighter: ['bright', 'brighter', 'lighter', 'airy', 'high-key', '明亮', '提亮', '亮', 'sáng', 'สว่าง', 'terang'],
  darker: ['dark', 'darker', 'moody', '暗', '深沉', 'tối', 'มืด', 'gelap'],
  softer: ['soft', 'softer', 'muted', 'pastel', 'gentle', '柔和', '低饱和', '淡雅', 'dịu', 'nhạt', 'นุ่มนวล', 'หม่น', 'lembut', 'kalem'],
  vivid: ['vivid', 'vibrant', 'saturated', 'bold', '鲜艳', '饱和', 'rực rỡ', 'สดใส', 'cerah', 'mencolok'],
};

/** Spellings designers use beside the palette's own names. */
const COLOR_ALIASES: Record<string, string[]> = {
  grey: ['gray'],
  'light-grey': ['light gray'],
  'sky-blue': ['light blue', '浅蓝'],
  navy: ['navy blue', '深蓝', '藏蓝'],
  cream: ['ivory', 'off-white', 'off white'],
  burgundy: ['wine', 'maroon'],
  purple: ['violet'],
  magenta: ['fuchsia'],
  teal: ['turquoise'],
};

/** Latin-script words match whole words only; Chinese and Thai have no spaces to match against. */
function wordPattern(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return /^[\p{Script=Latin}\s&'-]+$/u.test(word)
    ? new RegExp(`(?<![\\p{L}\\p{M}])${escaped}(?![\\p{L}\\p{M}])`, 'iu')
    : new RegExp(escaped, 'u');
}

interface ColorTerm {
  color: NamedColor;
  term: string;
  pattern: RegExp;
}

/** Single characters that name a colour on their own ("米" is also a metre, "驼" a camel). */
const CHINESE_SINGLE_COLORS = new Set(['红', '黄', '蓝', '绿', '紫', '粉', '黑', '白', '灰', '橙', '棕']);

/**
 * Matching forms of every palette name: "红色" also as "红", "สีแดง" also as "แดง". A name that is
 * also a short English word ("be", Vietnamese beige) only matches with its "màu".
 */
const COLOR_TERMS: ColorTerm[] = NAMED_COLORS.flatMap((color) => {
  const terms = new Set<string>();
  for (const name of Object.values(color.names)) {
    const lower = name.toLowerCase();
    terms.add(/^[a-z]{1,2}$/.test(lower) ? `màu ${lower}` : lower);
    const bare = name.endsWith('色') ? name.slice(0, -1) : '';
    if (bare.length >= 2 || CHINESE_SINGLE_COLORS.has(bare)) terms.add(bare);
    if (name.startsWith('สี') && name.length > 2) terms.add(name.slice(2));
  }
  for (const alias of COLOR_ALIASES[color.id] ?? []) terms.add(alias);
  return [...terms].map((term) => ({ color, term, pattern: wordPattern(term) }));
}).sort((x, y) => y.term.length - x.term.length);

const TONE_PATTERNS = (Object.entries(TONE_WORDS) as [ToneKeyword, string[]][]).map(
  ([tone, words]) => [tone, words.map(wordPattern)] as const,
);

export function readPromptKeywords(prompt: string): PromptKeywords {
  let rest = prompt.toLowerCase();
  const tones: ToneKeyword[] = [];
  // Black and white first: its words are colour names too.
  const mono = TONE_PATTERNS.find(([tone]) => tone === 'mono')?.[1] ?? [];
  if (mono.some((p) => p.test(rest))) {
    tones.push('mono');
    for (const p of mono) rest = rest.replace(new RegExp(p.source, `${p.flags}g`), ' ');
  }
  let color: NamedColor | undefined;
  // The longest colour term wins ("dark green" over "green"), and its words are not read again.
  for (const term of COLOR_TERMS) {
    if (term.pattern.test(rest)) {
      color = term.color;
      rest = rest.replace(new RegExp(term.pattern.source, `${term.pattern.flags}g`), ' ');
      break;
    }
  }
  for (const [tone, patterns] of TONE_PATTERNS) {
    if (tone !== 'mono' && patterns.some((p) => p.test(rest))) tones.push(tone);
  }
  return color ? { tones, color } : { tones };
}

const TONE_EFFECTS: Record<ToneKeyword, ToneAdjustment> = {
  warmer: { warmth: 0.6 },
  cooler: { warmth: -0.6 },
  brighter: { lightness: 0.35, contrast: 0.95 },
  darker: { lightness: -0.35, contrast: 1.05 },
  softer: { saturation: 0.7, contrast: 0.9 },
  vivid: { saturation: 1.35, contrast: 1.05 },
  mono: { saturation: 0 },
};

/** The tone change the keywords ask for, and the words that name it in a label. */
export function keywordAdjustment(keywords: PromptKeywords): { adjustment: ToneAdjustment; words: AdjustmentWord[] } {
  let adjustment: ToneAdjustment = {};
  const words: AdjustmentWord[] = [];
  for (const tone of keywords.tones) {
    const effect = TONE_EFFECTS[tone];
    adjustment = {
      warmth: (adjustment.warmth ?? 0) + (effect.warmth ?? 0),
      lightness: (adjustment.lightness ?? 0) + (effect.lightness ?? 0),
      contrast: (adjustment.contrast ?? 1) * (effect.contrast ?? 1),
      saturation: (adjustment.saturation ?? 1) * (effect.saturation ?? 1),
    };
    words.push(tone);
  }
  if (keywords.color) {
    const [r, g, b] = hexToRgb(keywords.color.hex);
    adjustment.tint = { lab: rgbToLab(r, g, b), amount: 0.35 };
  }
  return { adjustment, words };
}
