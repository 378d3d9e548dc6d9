// The workshop on an OpenAI-compatible endpoint: text by the chat model (JSON: the improved text
// and the model's confidence), images by images.edit on the image model, one call per image,
// shape left to the model ('auto'). Without an image model (a LAN Ollama box) image items are
// refused as invalid_request, since the endpoint cannot do them. With a reader for the text, the
// chat completion is streamed: the JSON's first field is the text, handed over as it is written;
// a cut stream is asked again after the reader dropped what it saw.
import { ProviderError, type EnhanceInput, type EnhanceResult, type Enhancer, type GeneratedImage } from '../capabilities.js';
import { enhancedTextSchema, parseJsonAnswer, type EnhancedText } from '../shared/answer-schemas.js';
import { IMAGE_ONLY_CONFIDENCE, requireEnhanceInput } from '../shared/enhance-input.js';
import { creativityTemperature, enhanceImagePrompt, enhanceTextInstructions } from '../shared/instructions.js';
import { imageUrlParts, type OpenAiContext } from './openai-context.js';
import { openAiImage } from './openai-images.js';
import { chatJson, chatJsonStreamed, type JsonChat } from './openai-json.js';
import { StreamedFieldText } from '../shared/streamed-json-field.js';
import { retrying } from '../shared/retry.js';

export function createOpenAiEnhancer(context: OpenAiContext): Enhancer {
  return {
    async enhance(input: EnhanceInput, onText?: (chunk: string) => void, onRestart?: () => void): Promise<EnhanceResult> {
      const { wantsText, wantsImages } = requireEnhanceInput(input, 'openai');
      const imageModel = context.imageModel;
      if (wantsImages && !imageModel) {
        throw new ProviderError('invalid_request', 'this OpenAI-compatible endpoint has no image model (OPENAI_IMAGE_MODEL)', { provider: 'openai' });
      }
      const text = wantsText ? await enhanceText(context, input, onText, onRestart) : undefined;
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

async function enhanceText(context: OpenAiContext, input: EnhanceInput, onText?: (chunk: string) => void, onRestart?: () => void) {
  const request: JsonChat<EnhancedText> = {
    name: 'enhanced_text',
    system: enhanceTextInstructions(input),
    content: [{ type: 'text', text: input.text ?? '' }, ...(await imageUrlParts(input.images))],
    schema: enhancedTextSchema,
    read: (json) => parseJsonAnswer(enhancedTextSchema, json, 'openai', 'enhanced text'),
    temperature: creativityTemperature(input.creativity),
    signal: input.signal,
    what: 'enhanced text',
  };
  if (!onText) return chatJson(context, request);
  const shown = new StreamedFieldText('text', onText, onRestart);
  // A retry after text was shown needs a reader that can drop it.
  const answer = await chatJsonStreamed(context, request, (json) => shown.push(json), onRestart && (() => shown.restart()));
  shown.finish(answer.value.text);
  return answer;
}
