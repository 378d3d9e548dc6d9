// The built-in engine's analysis: the measured facts of the pattern and model images, the fabric
// form and the designer's brief, written in the request's language and streamed sentence by
// sentence (with a short pause between pieces, so the interface shows a stream as it does for a
// cloud model).
import type { AnalyseInput, AnalysisData, AnalysisResult, Analyser, InputImage, Language } from '../capabilities.js';
import { pause, throwIfCancelled } from './cancellation.js';
import { catalogue, formatNumber } from './catalogue.js';
import { colorName } from './color-palette.js';
import { combineColorShares, type ColorShare } from './dominant-colors.js';
import { asSentence, colorList, derivedStyle, fabricDetails, fabricGuidance, patternWords, trimmed } from './fact-words.js';
import { measureImage, type ImageFacts } from './image-facts.js';
import { LOCAL_PREVIEW_MODEL } from './model-name.js';

export interface LocalAnalyserOptions {
  /** Pause between streamed pieces in ms (default 60; 0 in tests). */
  pauseMs?: number;
}

/** The workflow allows 6 of each; more would only slow the preview. */
const MAX_IMAGES_PER_ROLE = 6;

export async function measureAll(images: readonly InputImage[], signal: AbortSignal): Promise<ImageFacts[]> {
  const facts: ImageFacts[] = [];
  for (const image of images.slice(0, MAX_IMAGES_PER_ROLE)) {
    throwIfCancelled(signal);
    facts.push(await measureImage(image.data));
  }
  throwIfCancelled(signal);
  return facts;
}

interface Written {
  pieces: string[];
  data: AnalysisData;
}

/** The analysis as a list of pieces (sentences and paragraph breaks) plus the structured data. */
export function writeAnalysis(input: Omit<AnalyseInput, 'signal' | 'modelImages' | 'patternImages'>, patterns: ImageFacts[], models: ImageFacts[]): Written {
  const language: Language = input.language;
  const c = catalogue(language);
  const sep = language === 'zh-CN' ? '' : ' ';
  const pieces: string[] = [];
  const sentence = (s: string) => pieces.push(s + sep);
  const paragraph = () => {
    if (pieces.length) pieces[pieces.length - 1] = (pieces[pieces.length - 1] as string).trimEnd() + '\n\n';
  };

  const palette: ColorShare[] = combineColorShares((patterns.length ? patterns : models).map((f) => f.colors));
  const primary = patterns[0] ?? models[0];

  sentence(c.analysis.intro(patterns.length, models.length));
  paragraph();
  if (!primary) sentence(c.analysis.noImages);
  patterns.forEach((facts, i) => {
    sentence(c.analysis.patternImage(patterns.length > 1 ? i + 1 : null, c.pattern(patternWords(facts.pattern, language))));
  });
  if (patterns.length === 0 && models.length > 0) sentence(c.analysis.noPattern);
  if (palette.length) sentence(c.analysis.colors(colorList(palette, language, { shares: true })));
  const toneText = primary ? c.tone(primary.tone) : '';
  if (primary) {
    sentence(c.analysis.overall(toneText));
    sentence(c.analysis.texture(primary.texture.level, formatNumber(primary.texture.energy, language, 2)));
  }
  const details = fabricDetails(input.fabric, language);
  if (details) sentence(c.analysis.fabric(details));
  if (models.length) {
    const modelPalette = combineColorShares(models.map((f) => f.colors), { maxColors: 3 });
    const lightness = models[0]?.tone.lightness ?? 'medium';
    sentence(c.analysis.model(models.length, lightness, colorList(modelPalette, language, { limit: 3 })));
  } else if (patterns.length) {
    sentence(c.analysis.noModel);
  }
  const style = trimmed(input.fabric.style) || (primary ? derivedStyle(primary, language) : c.styleWords.natural);
  sentence(c.analysis.style(style));
  const uses = trimmed(input.fabric.suggested_uses);
  if (uses) sentence(c.analysis.uses(uses));
  const scene = trimmed(input.fabric.scene);
  if (scene) sentence(c.analysis.scene(scene));
  const notes = trimmed(input.description);
  if (notes) sentence(c.analysis.notes(notes));
  paragraph();
  sentence(c.analysis.closing);
  pieces[pieces.length - 1] = (pieces[pieces.length - 1] as string).trimEnd();

  const primaryPattern = patterns[0];
  const words = primaryPattern ? patternWords(primaryPattern.pattern, language) : null;
  const patternText = words ? c.pattern(words) : '';
  const colorNames = colorList(palette, language, { limit: 4 });
  const hand = [trimmed(input.fabric.touch), trimmed(input.fabric.luster), trimmed(input.fabric.drape)].filter(Boolean);
  const data: AnalysisData = {
    summary: primary ? c.analysis.summary(patternText || c.analysis.noPattern.replace(/[.。;；]\s*$/, ''), colorNames, toneText) : c.analysis.noImages,
    colors: palette.map((col) => ({
      hex: col.hex,
      name: colorName(col.rgb, language),
      share: Math.round(col.share * 100) / 100,
    })),
    pattern: words
      ? {
          kind: c.patternShort(words),
          scale: c.scaleNames[words.scale],
          orientation: c.orientationNames[words.orientation],
          repeat: words.period ?? '',
        }
      : { kind: '', scale: '', orientation: '', repeat: '' },
    texture: [primary ? c.textureWords[primary.texture.level] : '', ...hand].filter(Boolean).join(c.itemSeparator),
    image_prompt: c.analysis.imagePrompt({
      prompt: asSentence(input.prompt, language),
      fabric: details,
      facts: {
        pattern: patternText || '—',
        patternShort: words ? c.patternShort(words) : '',
        colors: colorNames || '—',
        tone: primary?.tone ?? { lightness: 'medium', contrast: 'medium', colourfulness: 'moderate', warmth: 'neutral' },
        style,
      },
      extras: fabricGuidance(input.fabric, language),
    }),
    moments_text: c.analysis.moments({
      name: trimmed(input.fabric.fabric_name) || c.analysis.defaultFabricName,
      patternShort: words ? c.patternShort(words) : '',
      colors: colorList(palette, language, { limit: 3 }),
      hand: trimmed(input.fabric.touch),
      selling: trimmed(input.fabric.selling_points),
      uses,
      market: trimmed(input.fabric.target_market),
    }),
    style,
  };
  return { pieces, data };
}

export function createLocalAnalyser(options: LocalAnalyserOptions = {}): Analyser {
  const pauseMs = options.pauseMs ?? 60;
  return {
    async analyse(input: AnalyseInput, onText: (chunk: string) => void): Promise<AnalysisResult> {
      throwIfCancelled(input.signal);
      const patterns = await measureAll(input.patternImages, input.signal);
      const models = await measureAll(input.modelImages, input.signal);
      const { pieces, data } = writeAnalysis(input, patterns, models);
      let text = '';
      for (const piece of pieces) {
        throwIfCancelled(input.signal);
        onText(piece);
        text += piece;
        if (pauseMs > 0) await pause(pauseMs, input.signal);
      }
      return { text, data, model: LOCAL_PREVIEW_MODEL };
    },
  };
}
