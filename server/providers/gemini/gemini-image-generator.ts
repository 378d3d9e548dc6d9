// Candidate images from Gemini's image model ("Gemini-Banana", e.g. gemini-2.5-flash-image):
// one generateContent per candidate with responseModalities TEXT+IMAGE, the model and pattern
// images as inline parts, imageConfig.aspectRatio from the aspect ('auto' leaves the shape to the
// model, which follows the input image). Each candidate asks for a different composition, so six
// candidates are six pictures; two run at a time, each succeeding or failing on its own
// (shared/each-candidate.ts). The model works best with up to three input images: the first model
// image and the pattern are chosen (shared/images.ts pickImageInputs).
import type { GenerateContentConfig, Part } from '@google/genai';
import { ProviderError, type GeneratedImage, type ImageGenerationInput, type ImageGenerator } from '../capabilities.js';
import { ASPECT_RATIO } from '../shared/aspect.js';
import { eachCandidate } from '../shared/each-candidate.js';
import { pickImageInputs, readGeneratedImage } from '../shared/images.js';
import { candidateImagePrompt, candidateShot, creativityTemperature } from '../shared/instructions.js';
import type { GeminiContext } from './gemini-context.js';
import { toGeminiError } from './gemini-errors.js';
import { checkFinishReason, checkPromptFeedback, finishReasonOf, inlineImageParts, inlineImagesOf, textOf } from './gemini-response.js';
import { withRetry } from './gemini-retry.js';

const CONCURRENT_CANDIDATES = 2;

export function createGeminiImageGenerator(context: GeminiContext): ImageGenerator {
  return {
    async generateImages(input, onImage) {
      const sources = await inlineImageParts(pickImageInputs(input.sources));
      const { images, failures } = await eachCandidate(
        input.count,
        CONCURRENT_CANDIDATES,
        input.signal,
        (index, signal) =>
          withRetry(
            () =>
              generateOneImage(context, {
                parts: [{ text: candidateImagePrompt(input, index) }, ...sources],
                config: imageConfig(input),
                signal,
                label: candidateShot(index, input.language).label,
              }),
            context.retry,
            signal,
          ),
        onImage,
      );
      return { images, model: context.imageModel, failures };
    },
  };
}

function imageConfig(input: Pick<ImageGenerationInput, 'aspect'>): Partial<GenerateContentConfig> {
  return input.aspect === 'auto' ? {} : { imageConfig: { aspectRatio: ASPECT_RATIO[input.aspect] } };
}

export interface OneImage {
  parts: Part[];
  /** imageConfig and the like. */
  config: Partial<GenerateContentConfig>;
  signal: AbortSignal;
  label?: string;
  /** 0..1, for the workshop's slider. */
  creativity?: number;
}

/** One image-model call: the first inline image of the answer, or a ProviderError saying why there is none. */
export async function generateOneImage(context: GeminiContext, request: OneImage): Promise<GeneratedImage> {
  const { parts, signal, creativity } = request;
  let response;
  try {
    response = await context.ai.models.generateContent({
      model: context.imageModel,
      contents: [{ role: 'user', parts }],
      config: {
        responseModalities: ['TEXT', 'IMAGE'],
        ...(creativity === undefined ? {} : { temperature: creativityTemperature(creativity) }),
        ...request.config,
        abortSignal: signal,
      },
    });
  } catch (error) {
    throw toGeminiError(error, signal);
  }
  checkPromptFeedback(response);
  const [image] = inlineImagesOf(response);
  if (!image) {
    checkFinishReason(finishReasonOf(response), 'image');
    const said = textOf(response).trim();
    throw new ProviderError('bad_response', `Gemini answered without an image${said ? `: ${said.slice(0, 160)}` : ''}`, { provider: 'gemini' });
  }
  return readGeneratedImage(image, 'gemini', request.label);
}
