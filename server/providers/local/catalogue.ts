// Every sentence and label the built-in engine writes, in the product's five languages. The
// engine fills these templates with measured facts and the designer's own words; nothing here
// claims more than was measured. The words are the "local-engine" dictionary
// (server/locales/<language>/local-engine.json); this module shapes them into each language's
// Catalogue, choosing a sentence's variant (with or without a luster, a drape…) and leaving out
// the parts the designer did not fill.
import type { Language } from '../capabilities.js';
import { SUPPORTED_LANGUAGES } from '../../../shared/i18n/languages.js';
import { translate, translateCount, translateObject } from '../../i18n/server-i18n.js';
import type engineZh from '../../locales/zh-CN/local-engine.json';
import type { Orientation, PatternKind, PatternScale } from './pattern-structure.js';
import type { TextureLevel } from './texture-energy.js';
import type { Colourfulness, Level, Lightness, Warmth } from './tone-facts.js';

export interface PatternWords {
  kind: PatternKind;
  orientation: Orientation;
  scale: PatternScale;
  /** e.g. "16 px" or "16 × 16 px"; null without a repeat. */
  period: string | null;
  /** How many repeats fit across, formatted; null without a repeat. */
  repeats: string | null;
  /** Feature size, formatted ("24 px"). */
  featureSize: string;
}

export interface ToneWords {
  lightness: Lightness;
  contrast: Level;
  colourfulness: Colourfulness;
  warmth: Warmth;
}

export type StyleWord =
  'graphic' | 'classic' | 'minimal' | 'playful' | 'airy' | 'refined' | 'vibrant' | 'natural';
export type MoodWord = 'calm' | 'crisp' | 'moody' | 'lively' | 'relaxed';
export type FabricField =
  | 'fabric_name'
  | 'composition'
  | 'weight'
  | 'transparency'
  | 'luster'
  | 'drape'
  | 'touch'
  | 'thickness'
  | 'model_guidance'
  | 'color_restrictions'
  | 'accessories'
  | 'scene'
  | 'suggested_uses';

/** Tone changes of a regenerated image or candidate, named in its label. */
export type AdjustmentWord =
  | 'warmer'
  | 'cooler'
  | 'brighter'
  | 'darker'
  | 'softer'
  | 'vivid'
  | 'mono'
  | 'tighter'
  | 'detail'
  | 'stronger'
  | 'gentler'
  | 'asIs';

export interface ImageFactsForText {
  pattern: string;
  patternShort: string;
  colors: string;
  tone: ToneWords;
  style: string;
}

export interface Catalogue {
  /** Noun phrase describing a measured pattern. */
  pattern(w: PatternWords): string;
  /** Two or three words: "vertical stripes", "check", "irregular print". */
  patternShort(w: PatternWords): string;
  fabricLabels: Record<FabricField, string>;
  /** Words for the structured analysis fields. */
  orientationNames: Record<Orientation, string>;
  scaleNames: Record<PatternScale, string>;
  /** Separator of "label: value" items in running text. */
  itemSeparator: string;
  /** Between a label and its value: ": " (full-width in Chinese). */
  labelSeparator: string;
  /** Joins style words: "crisp and graphic, vibrant". */
  styleSeparator: string;
  colorWithShare(name: string, hex: string, percent: string): string;
  styleWords: Record<StyleWord, string>;
  moodWords: Record<MoodWord, string>;
  textureWords: Record<TextureLevel, string>;
  tone(t: ToneWords): string;
  analysis: {
    intro(patternCount: number, modelCount: number): string;
    patternImage(index: number | null, description: string): string;
    colors(list: string): string;
    overall(tone: string): string;
    texture(level: TextureLevel, energy: string): string;
    fabric(details: string): string;
    model(count: number, lightness: Lightness, colors: string): string;
    noModel: string;
    noPattern: string;
    noImages: string;
    style(style: string): string;
    uses(uses: string): string;
    scene(scene: string): string;
    notes(description: string): string;
    closing: string;
    summary(pattern: string, colors: string, tone: string): string;
    imagePrompt(p: { prompt: string; fabric: string; facts: ImageFactsForText; extras: string }): string;
    moments(p: {
      name: string;
      patternShort: string;
      colors: string;
      hand: string;
      selling: string;
      uses: string;
      market: string;
    }): string;
    defaultFabricName: string;
  };
  labels: {
    modelToned: string;
    modelPanel: string;
    swatchTiled: string;
    swatchCloseUp: string;
    colourway(degrees: number): string;
    lookbook: string;
    halfDrop: string;
    mirror: string;
    paletteCard: string;
    modelReframed: string;
    modelWarm: string;
    modelCool: string;
    modelHighKey: string;
    modelMuted: string;
    modelDetail: string;
    modelGrid: string;
    variation(n: number, changes: string): string;
    adjustments: Record<AdjustmentWord, string>;
    tintedToward(color: string): string;
    /** A hue shift inside a variation's list of changes: "colourway +30°". */
    hueShift(signedDegrees: string): string;
  };
  video: {
    subject(fabric: string): string;
    detail(p: { cams: string; subject: string; pattern: string; colors: string; luster: string }): string;
    follow(p: { cams: string; subject: string; pattern: string; drape: string }): string;
    reveal(p: { cams: string; subject: string; hand: string }): string;
    scene(scene: string): string;
    mood(mood: string): string;
    defaultScenes: [string, string, string];
  };
}

/** A key of the dictionary by its dotted path; plural forms ("x_one", "x_other") are named once, as "x". */
type KeyOf<T> = {
  [K in keyof T & string]: T[K] extends string | readonly string[]
    ? K extends `${infer Base}_${'one' | 'other'}`
      ? Base
      : K
    : K | `${K}.${KeyOf<T[K]>}`;
}[keyof T & string];
type EngineKey = KeyOf<typeof engineZh>;

type Values = Record<string, string | number | null>;

function buildCatalogue(language: Language): Catalogue {
  // Values go in as a template literal would write them (a missing period reads "null").
  const text = (values: Values) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  const t = (key: EngineKey, values: Values = {}) => translate('local-engine', language, key, text(values));
  const counted = (key: EngineKey, count: number, values: Values = {}) =>
    translateCount('local-engine', language, key, count, text(values));
  const table = <K extends string>(key: EngineKey) =>
    translateObject<Record<K, string>>('local-engine', language, key);
  const sentences = t('separators.sentence');

  const orientationWord = (o: Orientation) => (o === 'none' ? '' : t(`orientationWords.${o}`));
  const textureWords = table<TextureLevel>('textureWords');
  const tone = (w: ToneWords) =>
    t('tone.summary', {
      lightness: t(`tone.lightness.${w.lightness}`),
      contrast: t(`tone.contrast.${w.contrast}`),
      colourfulness: t(`tone.colourfulness.${w.colourfulness}`),
      warmth: t(`tone.warmth.${w.warmth}`),
    });

  return {
    pattern: (w) =>
      t(`pattern.${w.kind}`, {
        orientation: orientationWord(w.orientation),
        period: w.period,
        repeats: w.repeats,
        featureSize: w.featureSize,
        scale: w.scale === 'none' ? '' : t('pattern.scale', { size: t(`scaleWords.${w.scale}`) }),
      }),
    patternShort: (w) => t(`patternShort.${w.kind}`, { orientation: orientationWord(w.orientation) }),
    fabricLabels: table<FabricField>('fabricLabels'),
    orientationNames: table<Orientation>('orientationNames'),
    scaleNames: table<PatternScale>('scaleNames'),
    itemSeparator: t('separators.item'),
    labelSeparator: t('separators.label'),
    styleSeparator: t('separators.style'),
    colorWithShare: (name, hex, percent) => t('colorWithShare', { name, hex, percent }),
    styleWords: table<StyleWord>('styleWords'),
    moodWords: table<MoodWord>('moodWords'),
    textureWords,
    tone,
    analysis: {
      intro: (patterns, models) =>
        t('analysis.intro', {
          patternImages: counted('analysis.patternImages', patterns),
          modelImages: counted('analysis.modelImages', models),
        }),
      patternImage: (index, description) =>
        index === null
          ? t('analysis.patternImage', { description })
          : t('analysis.patternImageNumbered', { index, description }),
      colors: (colors) => t('analysis.colors', { colors }),
      overall: (tone) => t('analysis.overall', { tone }),
      texture: (level, energy) => t('analysis.texture', { texture: textureWords[level], energy }),
      fabric: (details) => t('analysis.fabric', { details }),
      model: (count, lightness, colors) =>
        counted('analysis.model', count, { lightness: t(`tone.lightness.${lightness}`), colors }),
      noModel: t('analysis.noModel'),
      noPattern: t('analysis.noPattern'),
      noImages: t('analysis.noImages'),
      style: (style) => t('analysis.style', { style }),
      uses: (uses) => t('analysis.uses', { uses }),
      scene: (scene) => t('analysis.scene', { scene }),
      notes: (notes) => t('analysis.notes', { notes }),
      closing: t('analysis.closing'),
      summary: (pattern, colors, tone) => t('analysis.summary', { pattern, colors, tone }),
      imagePrompt: ({ prompt, fabric, facts, extras }) =>
        joinNonEmpty(
          [
            prompt,
            fabric && t('analysis.imagePrompt.fabric', { fabric }),
            t('analysis.imagePrompt.facts', {
              pattern: facts.pattern,
              colors: facts.colors,
              tone: tone(facts.tone),
            }),
            t('analysis.imagePrompt.style', { style: facts.style }),
            extras,
          ],
          sentences,
        ),
      moments: ({ name, patternShort, colors, hand, selling, uses, market }) =>
        joinNonEmpty(
          [
            t('analysis.moments.lead', { name, patternShort, colors }),
            hand && t('analysis.moments.hand', { hand }),
            selling && t('analysis.moments.selling', { selling }),
            uses && t('analysis.moments.uses', { uses }),
            market && t('analysis.moments.market', { market }),
            t('analysis.moments.closing'),
          ],
          sentences,
        ),
      defaultFabricName: t('analysis.defaultFabricName'),
    },
    labels: {
      modelToned: t('labels.modelToned'),
      modelPanel: t('labels.modelPanel'),
      swatchTiled: t('labels.swatchTiled'),
      swatchCloseUp: t('labels.swatchCloseUp'),
      colourway: (degrees) => t('labels.colourway', { degrees }),
      lookbook: t('labels.lookbook'),
      halfDrop: t('labels.halfDrop'),
      mirror: t('labels.mirror'),
      paletteCard: t('labels.paletteCard'),
      modelReframed: t('labels.modelReframed'),
      modelWarm: t('labels.modelWarm'),
      modelCool: t('labels.modelCool'),
      modelHighKey: t('labels.modelHighKey'),
      modelMuted: t('labels.modelMuted'),
      modelDetail: t('labels.modelDetail'),
      modelGrid: t('labels.modelGrid'),
      variation: (number, changes) => t('labels.variation', { number, changes }),
      adjustments: table<AdjustmentWord>('labels.adjustments'),
      tintedToward: (color) => t('labels.tintedToward', { color }),
      hueShift: (degrees) => t('labels.hueShift', { degrees }),
    },
    video: {
      subject: (fabric) => fabric || t('video.defaultSubject'),
      detail: ({ cams, subject, pattern, colors, luster }) =>
        luster
          ? t('video.detailLuster', { cams, subject, pattern, colors, luster })
          : t('video.detail', { cams, subject, pattern, colors }),
      follow: ({ cams, subject, pattern, drape }) =>
        drape
          ? t('video.followDrape', { cams, subject, pattern, drape })
          : t('video.follow', { cams, subject, pattern }),
      reveal: ({ cams, subject, hand }) =>
        hand ? t('video.revealHand', { cams, subject, hand }) : t('video.reveal', { cams, subject }),
      scene: (scene) => t('video.scene', { scene }),
      mood: (mood) => t('video.mood', { mood }),
      defaultScenes: translateObject<[string, string, string]>(
        'local-engine',
        language,
        'video.defaultScenes',
      ),
    },
  };
}

export const CATALOGUES = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((l) => [l, buildCatalogue(l)]),
) as Record<Language, Catalogue>;

export function catalogue(language: Language): Catalogue {
  return CATALOGUES[language] ?? CATALOGUES['en-US'];
}

/** Sentences and list items are joined with spaces, except in Chinese. */
export function sentenceSeparator(language: Language): string {
  return translate('local-engine', language, 'separators.sentence');
}

function joinNonEmpty(parts: (string | false | undefined)[], separator: string): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(separator);
}

/** "a, b and c" in the language's own way. */
export function listOf(items: string[], language: Language): string {
  return new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(items);
}

export function formatNumber(value: number, language: Language, fractionDigits = 0): string {
  return new Intl.NumberFormat(language, {
    maximumFractionDigits: fractionDigits,
    minimumFractionDigits: 0,
  }).format(value);
}

export function formatPercent(share: number, language: Language): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(share);
}
