// The workshop of the built-in engine. Images: enlarged (Real-CUGAN when the server wires it in,
// else lanczos x2) and tone-corrected. Text: only what a rule can fix (text-tidy.ts). The
// confidence says how little that is: at most 0.4 for text, 0.3 for a lanczos enlargement, 0.6
// with Real-CUGAN; a mixed request gets the lower of the two. The tidied text goes to the reader
// in one piece, through the same stream as a cloud model's.
import type { EnhanceInput, EnhanceResult, Enhancer, GeneratedImage } from '../capabilities.js';
import { ProviderError } from '../capabilities.js';
import { throwIfCancelled } from './cancellation.js';
import { correctTone, enlarge, outputFormatOf, toneCorrectionFor, type Upscale } from './image-tone-correction.js';
import { LOCAL_PREVIEW_MODEL, LOCAL_PROVIDER } from './model-name.js';
import { tidyConfidence, tidyText } from './text-tidy.js';

export interface LocalEnhancerOptions {
  /** The server's Real-CUGAN engine (2x), when it has one. */
  upscale?: Upscale;
}

export const IMAGE_CONFIDENCE = { withUpscaler: 0.6, lanczos: 0.3 } as const;

function invalid(message: string): ProviderError {
  return new ProviderError('invalid_request', message, { provider: LOCAL_PROVIDER });
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
      if (wantsText && input.text?.trim()) {
        const tidied = tidyText(input.text);
        text = tidied.text;
        confidences.push(tidyConfidence(tidied.count));
        if (text) onText?.(text);
      }
      const images: GeneratedImage[] = [];
      if (wantsImages && input.images.length) {
        const correction = toneCorrectionFor(input.style, input.creativity, input.precision);
        for (const image of input.images) {
          throwIfCancelled(input.signal);
          let enlarged: Buffer;
          try {
            enlarged = await enlarge(image.data, options.upscale, input.signal);
          } catch (e) {
            if (e instanceof ProviderError) throw e;
            throw new ProviderError('invalid_request', 'an image could not be enlarged', { provider: LOCAL_PROVIDER, cause: e });
          }
          throwIfCancelled(input.signal);
          images.push(await correctTone(enlarged, correction, outputFormatOf(image.mimeType)));
        }
        confidences.push(options.upscale ? IMAGE_CONFIDENCE.withUpscaler : IMAGE_CONFIDENCE.lanczos);
      }
      throwIfCancelled(input.signal);
      return {
        ...(text !== undefined ? { text } : {}),
        images,
        confidence: confidences.length ? Math.min(...confidences) : 0,
        model: LOCAL_PREVIEW_MODEL,
      };
    },
  };
}
