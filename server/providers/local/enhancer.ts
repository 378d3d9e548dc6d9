// The workshop of the built-in engine. Images: enlarged (Real-CUGAN when the server wires it in,
// else lanczos x2; the result's model says which, with the scale) and tone-corrected. Text: what a rule can fix (text-tidy.ts: spacing,
// punctuation, capitals after a full stop, fabric terms) and the spelling where the text's language
// has a Hunspell dictionary (spelling.ts), with every change listed. The confidence says how little
// that is: at most 0.6 for checked text (0.4 unchecked), 0.3 for a lanczos enlargement, 0.6 with
// Real-CUGAN; a mixed request gets the lower of the two. The polished text goes to the reader in
// one piece, through the same stream as a cloud model's.
import type { EnhanceInput, EnhanceResult, Enhancer, GeneratedImage, TextChangeReport } from '../capabilities.js';
import { ProviderError } from '../capabilities.js';
import { throwIfCancelled } from './cancellation.js';
import { correctTone, enlarge, outputFormatOf, toneCorrectionFor, type EnlargeResult, type Upscale } from './image-tone-correction.js';
import { LOCAL_PREVIEW_MODEL, LOCAL_PROVIDER } from './model-name.js';
import { correctSpelling, textLanguage } from './spelling.js';
import { tidyConfidence, tidyText } from './text-tidy.js';

export interface LocalEnhancerOptions {
  /** The server's Real-CUGAN engine (2x), when it has one. */
  upscale?: Upscale;
  /** Told when the upscaler failed and lanczos stood in (the result's model says so too). */
  onUpscaleFallback?: (error: unknown) => void;
}

export const IMAGE_CONFIDENCE = { withUpscaler: 0.6, lanczos: 0.3 } as const;

function invalid(message: string): ProviderError {
  return new ProviderError('invalid_request', message, { provider: LOCAL_PROVIDER });
}

/** Tidies the text, then corrects its spelling where its language has a dictionary; lists every change. */
export async function polishText(
  input: string,
  language: EnhanceInput['language'],
  signal?: AbortSignal,
): Promise<{ text: string; report: TextChangeReport }> {
  const tidied = tidyText(input);
  const spelled = await correctSpelling(tidied.text, textLanguage(tidied.text, language), signal);
  return {
    text: spelled.text,
    report: {
      spelling: spelled.report,
      changes: [...tidied.changes, ...spelled.fixes.map((f) => ({ rule: 'spelling', ...f }))],
      unknown: spelled.unknown,
    },
  };
}

/** Checked spelling: 0.3 for nothing to change, up to 0.6; unchecked: text-tidy's 0.2 to 0.4. */
export function polishConfidence(report: TextChangeReport): number {
  const n = report.changes.length;
  if (!report.spelling.checked) return tidyConfidence(n);
  return Math.round(Math.min(0.6, 0.3 + 0.04 * n) * 100) / 100;
}

export function createLocalEnhancer(options: LocalEnhancerOptions = {}): Enhancer {
  return {
    async enhance(input: EnhanceInput, onText?: (chunk: string) => void): Promise<EnhanceResult> {
      throwIfCancelled(input.signal);
      const wantsText = input.type === 'text' || input.type === 'mixed';
      const wantsImages = input.type === 'image' || input.type === 'mixed';
      if (wantsText && !input.text?.trim() && input.type === 'text') throw invalid('no text to enhance');
      if (wantsImages && input.images.length === 0 && input.type === 'image') throw invalid('no image to enhance');

      const confidences: number[] = [];
      let text: string | undefined;
      let textChanges: TextChangeReport | undefined;
      if (wantsText && input.text?.trim()) {
        const polished = await polishText(input.text, input.language, input.signal);
        text = polished.text;
        textChanges = polished.report;
        confidences.push(polishConfidence(polished.report));
        if (text) onText?.(text);
      }
      const images: GeneratedImage[] = [];
      const methods = new Set<string>();
      if (wantsImages && input.images.length) {
        const correction = toneCorrectionFor(input.style, input.creativity, input.precision);
        for (const image of input.images) {
          throwIfCancelled(input.signal);
          let enlarged: EnlargeResult;
          try {
            enlarged = await enlarge(image.data, options.upscale, input.signal, options.onUpscaleFallback);
          } catch (e) {
            if (e instanceof ProviderError) throw e;
            throw new ProviderError('invalid_request', 'an image could not be enlarged', { provider: LOCAL_PROVIDER, cause: e });
          }
          methods.add(enlarged.model);
          throwIfCancelled(input.signal);
          images.push(await correctTone(enlarged.data, correction, outputFormatOf(image.mimeType)));
        }
        const allUpscaled = [...methods].every((m) => m.startsWith('Real-CUGAN'));
        confidences.push(allUpscaled ? IMAGE_CONFIDENCE.withUpscaler : IMAGE_CONFIDENCE.lanczos);
      }
      throwIfCancelled(input.signal);
      return {
        ...(text !== undefined ? { text } : {}),
        ...(textChanges ? { textChanges } : {}),
        images,
        confidence: confidences.length ? Math.min(...confidences) : 0,
        // Which enlargement each image had: "… · Real-CUGAN up2x-conservative ×2 (640×480 → 1280×960)".
        model: [LOCAL_PREVIEW_MODEL, ...methods].join(' · '),
      };
    },
  };
}
