// The workshop on Gemini: text by the text model (JSON: the improved text and the model's own
// confidence that it is better), images by the image model, one call per image, keeping each
// image's shape. 'mixed' does both, the images also serving the text model as context. With a
// reader for the text, it is streamed (streamGenerateContent): the JSON's first field is the text,
// handed over as it is written; a cut stream is asked again after the reader dropped what it saw.
import { ProviderError, type EnhanceInput, type EnhanceResult, type Enhancer, type GeneratedImage } from '../capabilities.js';
import { enhancedTextSchema, type EnhancedText } from '../shared/answer-schemas.js';
import { IMAGE_ONLY_CONFIDENCE, requireEnhanceInput } from '../shared/enhance-input.js';
import { creativityTemperature, enhanceImagePrompt, enhanceTextInstructions } from '../shared/instructions.js';
import { StreamedFieldText } from '../shared/streamed-json-field.js';
import type { GeminiContext } from './gemini-context.js';
import { generateOneImage } from './gemini-image-generator.js';
import { generateJson, readJson, streamJson, type JsonRequest } from './gemini-json.js';
import { inlineImageParts } from './gemini-response.js';
import { withRetry } from './gemini-retry.js';

export function createGeminiEnhancer(context: GeminiContext): Enhancer {
  return {
    async enhance(input: EnhanceInput, onText?: (chunk: string) => void, onRestart?: () => void): Promise<EnhanceResult> {
      const { wantsText, wantsImages } = requireEnhanceInput(input, 'gemini');
      const text = wantsText ? await enhanceText(context, input, onText, onRestart) : undefined;
      const images: GeneratedImage[] = [];
      if (wantsImages) {
        for (const image of input.images) {
          const parts = [{ text: enhanceImagePrompt(input) }, ...(await inlineImageParts([image]))];
          const request = { parts, config: {}, signal: input.signal, creativity: input.creativity };
          images.push(await withRetry(() => generateOneImage(context, request), context.retry, input.signal));
        }
      }
      const models = [text ? text.model : undefined, wantsImages ? context.imageModel : undefined].filter(Boolean);
      return {
        ...(text ? { text: text.value.text } : {}),
        images,
        confidence: text ? text.value.confidence : IMAGE_ONLY_CONFIDENCE,
        model: models.join(' + '),
      };
    },
  };
}

async function enhanceText(context: GeminiContext, input: EnhanceInput, onText?: (chunk: string) => void, onRestart?: () => void) {
  if (!input.text) throw new ProviderError('invalid_request', 'no text to enhance', { provider: 'gemini' });
  const request: JsonRequest<EnhancedText> = {
    systemInstruction: enhanceTextInstructions(input),
    parts: [{ text: input.text }, ...(await inlineImageParts(input.images))],
    schema: enhancedTextSchema,
    read: readJson(enhancedTextSchema, 'enhanced text'),
    temperature: creativityTemperature(input.creativity),
    signal: input.signal,
    what: 'enhanced text',
  };
  if (!onText) return generateJson(context, request);
  const shown = new StreamedFieldText('text', onText, onRestart);
  // A retry after text was shown needs a reader that can drop it.
  const answer = await streamJson(context, request, (json) => shown.push(json), onRestart && (() => shown.restart()));
  shown.finish(answer.value.text);
  return answer;
}
