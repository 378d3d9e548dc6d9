// Measured facts and the fabric form turned into the words the catalogue's templates take:
// formatted periods, colour lists, the fabric details, a style and a mood that follow from the
// measurements when the designer gave none.
import type { FabricInfo, Language } from '../capabilities.js';
import { catalogue, formatNumber, formatPercent, listOf, type FabricField, type MoodWord, type PatternWords, type StyleWord } from './catalogue.js';
import { colorName } from './color-palette.js';
import type { Rgb } from './color-space.js';
import type { ImageFacts } from './image-facts.js';
import type { PatternStructure } from './pattern-structure.js';
import type { ToneFacts } from './tone-facts.js';

export function patternWords(p: PatternStructure, language: Language): PatternWords {
  const px = (v: number) => `${formatNumber(Math.round(v), language)} px`;
  let period: string | null = null;
  if (p.kind === 'check' && p.periodX !== null && p.periodY !== null) {
    period = `${formatNumber(Math.round(p.periodX), language)} × ${px(p.periodY)}`;
  } else if (p.kind === 'stripes') {
    const along =
      p.orientation === 'vertical'
        ? p.periodX
        : p.orientation === 'horizontal'
          ? p.periodY
          : p.strengthX >= p.strengthY
            ? p.periodX
            : p.periodY;
    period = along !== null ? px(along) : null;
  }
  return {
    kind: p.kind,
    orientation: p.orientation,
    scale: p.scale,
    period,
    repeats: p.repeats !== null ? formatNumber(Math.max(2, Math.round(p.repeats)), language) : null,
    featureSize: px(p.featureSize),
  };
}

/** "red (52%), white (48%)", or names only. */
export function colorList(
  colors: readonly { rgb: Rgb; share: number; hex?: string }[],
  language: Language,
  options: { shares?: boolean; limit?: number } = {},
): string {
  const names: string[] = [];
  const words = catalogue(language);
  for (const c of colors.slice(0, options.limit ?? 6)) {
    const name = colorName(c.rgb, language);
    const item = options.shares
      ? words.colorWithShare(name, (c.hex ?? '').toUpperCase(), formatPercent(c.share, language))
      : name;
    // Two shades named alike are one word in a list.
    if (options.shares || !names.includes(item)) names.push(item);
  }
  return names.length ? listOf(names, language) : '';
}

/** A style that follows from what was measured, for when the form gives none. */
export function derivedStyleWords(facts: ImageFacts): StyleWord[] {
  const words: StyleWord[] = [];
  const { pattern, tone } = facts;
  if (pattern.kind === 'stripes') words.push(tone.contrast === 'high' ? 'graphic' : 'classic');
  else if (pattern.kind === 'check') words.push('classic');
  else if (pattern.kind === 'print') words.push(tone.colourfulness === 'vivid' ? 'playful' : 'natural');
  else if (pattern.kind === 'solid') words.push('minimal');
  else words.push('natural');
  if (tone.lightness === 'light' && tone.contrast !== 'high') words.push('airy');
  else if (tone.lightness === 'dark') words.push('refined');
  else if (tone.colourfulness === 'vivid') words.push('vibrant');
  return [...new Set(words)];
}

export function derivedStyle(facts: ImageFacts, language: Language): string {
  const c = catalogue(language);
  return derivedStyleWords(facts)
    .map((w) => c.styleWords[w])
    .join(c.styleSeparator);
}

export function moodOf(tone: ToneFacts): MoodWord {
  if (tone.lightness === 'dark') return 'moody';
  if (tone.colourfulness === 'vivid') return 'lively';
  if (tone.contrast === 'high') return 'crisp';
  if (tone.lightness === 'light') return 'calm';
  return 'relaxed';
}

const HAND_FIELDS: FabricField[] = ['fabric_name', 'composition', 'weight', 'transparency', 'luster', 'drape', 'touch', 'thickness'];
const GUIDANCE_FIELDS: FabricField[] = ['scene', 'model_guidance', 'color_restrictions', 'accessories'];

function fieldValue(fabric: FabricInfo, field: FabricField): string {
  const value = (fabric[field] ?? '').trim().replace(/\s+/g, ' ');
  // A bare number in the weight field is g/m² (the form's unit).
  if (field === 'weight' && /^\d+(?:[.,]\d+)?$/.test(value)) return `${value} g/m²`;
  return value;
}

function labelled(fabric: FabricInfo, fields: FabricField[], language: Language): string {
  const c = catalogue(language);
  return fields
    .map((f) => [f, fieldValue(fabric, f)] as const)
    .filter(([, v]) => v !== '')
    .map(([f, v]) => `${c.fabricLabels[f]}${c.labelSeparator}${v}`)
    .join(c.itemSeparator);
}

/** "fabric: Summer Stripe; composition: 100% cotton; weight: 180 g/m²" from the filled fields. */
export function fabricDetails(fabric: FabricInfo, language: Language): string {
  return labelled(fabric, HAND_FIELDS, language);
}

/** Scene, model guidance, colour limits and accessories, for the image prompt. */
export function fabricGuidance(fabric: FabricInfo, language: Language): string {
  return labelled(fabric, GUIDANCE_FIELDS, language);
}

export function trimmed(value: string | undefined): string {
  return (value ?? '').trim().replace(/\s+/g, ' ');
}

/** The designer's text as a sentence of its own (a closing mark added when it has none). */
export function asSentence(text: string, language: Language): string {
  const t = trimmed(text);
  if (!t || /[.!?。！？…]$/u.test(t) || language === 'th-TH') return t;
  return t + (language === 'zh-CN' ? '。' : '.');
}
