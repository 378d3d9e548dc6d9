// The workshop on an OpenAI-compatible endpoint: text by the chat model (JSON: the improved text
// and the model's confidence), images by images.edit on the image model, one call per image,
// shape left to the model ('auto'). Without an image model (a LAN Ollama box) image items are
// refused as invalid_request, since the endpoint cannot do them.
import { ProviderError, type EnhanceInput, type EnhanceResult, type Enhancer, type GeneratedImage } from '../capabilities.js';
import { enhancedTextSchema, parseJsonAnswer } from '../shared/answer-schemas.js';
import { IMAGE_ONLY_CONFIDENCE, requireEnhanceInput } from '../shared/enhance-input.js';
import { creativityTemperature, enhanceImagePrompt, enhanceTextInstructions } from '../shared/instructions.js';
import { imageUrlParts, type OpenAiContext } from './openai-context.js';
import { openAiImage } from './openai-images.js';
import { chatJson } from './openai-json.js';
import { retrying } from '../shared/retry.js';

export function createOpenAiEnhancer(context: OpenAiContext): Enhancer {
  return {
    async enhance(input: EnhanceInput): Promise<EnhanceResult> {
      const { wantsText, wantsImages } = requireEnhanceInput(input, 'openai');
      const imageModel = context.imageModel;
      if (wantsImages && !imageModel) {
        throw new ProviderError('invalid_request', 'this OpenAI-compatible endpoint has no image model (OPENAI_IMAGE_MODEL)', { provider: 'openai' });
      }
      const text = wantsText
        ? await chatJson(context, {
            name: 'enhanced_text',
            system: enhanceTextInstructions(input),
            content: [{ type: 'text', text: input.text ?? '' }, ...(await imageUrlParts(input.images))],
            schema: enhancedTextSchema,
            read: (json) => parseJsonAnswer(enhancedTextSchema, json, 'openai', 'enhanced text'),
            temperature: creativityTemperature(input.creativity),
            signal: input.signal,
            what: 'enhanced text',
          })
        : undefined;
      const images: GeneratedImage[] = [];
      if (wantsImages && imageModel) {
        for (const image of input.images) {
          const request = { prompt: enhanceImagePrompt(input), sources: [image], aspect: 'auto' as const, signal: input.signal };
          images.push(await retrying(() => openAiImage({ ...context, imageModel }, request), context.retry, input.signal, { provider: 'openai' }));
        }
      }
      return {
        ...(text ? { text: text.value.text } : {}),
        images,
        confidence: text ? text.value.confidence : IMAGE_ONLY_CONFIDENCE,
        model: [text?.model, wantsImages ? imageModel : undefined].filter(Boolean).join(' + '),
      };
    },
  };
}
