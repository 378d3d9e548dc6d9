// Regenerating one image locally: variations of it (crop, tone, colourway) steered by the prompt's
// tone and colour words where those can be honoured, each labelled with what was done.
import type { Language } from '../capabilities.js';
import { catalogue, type AdjustmentWord, type Catalogue } from './catalogue.js';
import { closerCrop, rotateHue } from './compositions.js';
import { keywordAdjustment, readPromptKeywords } from './prompt-keywords.js';
import type { Raster } from './raster.js';
import { adjustTone, combineAdjustments, isIdentity, scaleAdjustment, type ToneAdjustment } from './tone-adjust.js';

export interface PlannedImage {
  /** What the image is, worded in a language (every language is stored; the reader's is shown). */
  label: (labels: Catalogue['labels'], language: Language) => string;
  render: () => Promise<Raster>;
}

interface Variation {
  strength: number;
  extra?: ToneAdjustment;
  extraWords?: AdjustmentWord[];
  crop?: { zoom: number; focusY: number; word: AdjustmentWord };
  hue?: number;
}

/** With tone words in the prompt: the asked-for change at several strengths and framings. */
const STEERED: Variation[] = [
  { strength: 1 },
  { strength: 1, crop: { zoom: 1.25, focusY: 0.5, word: 'tighter' } },
  { strength: 1.6, extraWords: ['stronger'] },
  { strength: 0.5, extraWords: ['gentler'] },
  { strength: 1, crop: { zoom: 1.6, focusY: 0.35, word: 'detail' } },
  { strength: 1, extra: { saturation: 0.8, contrast: 0.92 }, extraWords: ['softer'] },
  { strength: 1.3, crop: { zoom: 1.15, focusY: 0.45, word: 'tighter' } },
  { strength: 0.8, extra: { saturation: 1.2 }, extraWords: ['vivid'] },
];

/** Without them: the usual directions a designer asks for next. */
const UNSTEERED: Variation[] = [
  { strength: 0, extraWords: ['asIs'] },
  { strength: 0, extra: { warmth: 0.55 }, extraWords: ['warmer'] },
  { strength: 0, extra: { warmth: -0.55 }, extraWords: ['cooler'] },
  { strength: 0, extra: { lightness: 0.3, contrast: 0.95 }, extraWords: ['brighter'] },
  { strength: 0, crop: { zoom: 1.3, focusY: 0.45, word: 'tighter' } },
  { strength: 0, hue: 30 },
  { strength: 0, extra: { saturation: 0.7, contrast: 0.9 }, extraWords: ['softer'] },
  { strength: 0, extra: { saturation: 1.3, contrast: 1.05 }, extraWords: ['vivid'] },
  { strength: 0, crop: { zoom: 1.7, focusY: 0.35, word: 'detail' } },
  { strength: 0, hue: -30 },
];

export function regenerationPlan(source: () => Promise<Raster>, prompt: string, count: number): PlannedImage[] {
  const keywords = readPromptKeywords(prompt);
  const { adjustment, words: steering } = keywordAdjustment(keywords);
  const steered = !isIdentity(adjustment);
  const variations = steered ? STEERED : UNSTEERED;
  const plan: PlannedImage[] = [];
  for (let i = 0; i < count; i++) {
    const base = variations[i % variations.length] as Variation;
    // Past the list, the same directions again with a colourway each time, so no two are alike.
    const round = Math.floor(i / variations.length);
    const v: Variation = round === 0 ? base : { ...base, hue: (base.hue ?? 0) + 45 * round };
    const tone = combineAdjustments(scaleAdjustment(adjustment, v.strength), v.extra ?? {});
    const named = (labels: Catalogue['labels'], language: Language): string[] => {
      const words: string[] = [];
      if (v.strength > 0) {
        words.push(...steering.map((w) => labels.adjustments[w]));
        if (keywords.color) words.push(labels.tintedToward(keywords.color.names[language]));
      }
      words.push(...(v.extraWords ?? []).map((w) => labels.adjustments[w]));
      if (v.crop) words.push(labels.adjustments[v.crop.word]);
      if (v.hue) words.push(labels.hueShift(v.hue > 0 ? `+${v.hue}` : `−${-v.hue}`));
      return words;
    };
    plan.push({
      label: (labels, language) => labels.variation(i + 1, named(labels, language).join(catalogue(language).styleSeparator)),
      render: async () => {
        let image = await source();
        if (v.crop) image = await closerCrop(image, v.crop.zoom, v.crop.focusY);
        if (!isIdentity(tone)) image = adjustTone(image, tone);
        if (v.hue) image = await rotateHue(image, v.hue);
        return image;
      },
    });
  }
  return plan;
}
