// Images on an OpenAI-compatible image model (gpt-image-2.5-sunburst by default on OpenAI): images.edit with the
// model and pattern images as inputs (up to three: the image model works best so), images.generate
// when there are none; one request per candidate, each asking for its own composition, two at a
// time, each handed over when ready and each succeeding or failing on its own; a 429 or 5xx is
// retried for that candidate alone, after the longest rate-limit hint. GPT image models that take
// input_fidelity are asked for 'high', so the person stays recognisable. dall-e-2 edits one square
// PNG under 4 MB; dall-e-3 cannot edit at all and is refused at start (provider-config.ts).
// The picture comes back as b64_json (gpt-image models always answer so; dall-e models are asked
// to); a gateway that answers with a URL is followed.
import { toFile } from 'openai';
import sharp from 'sharp';
import type { ImagesResponse } from 'openai/resources/images';
import { ProviderError, type Aspect, type GeneratedImage, type ImageGenerator, type InputImage } from '../capabilities.js';
import { eachCandidate } from '../shared/each-candidate.js';
import { pickImageInputs, prepareImage, readGeneratedImage } from '../shared/images.js';
import { retrying } from '../shared/retry.js';
import { candidateImagePrompt, candidateShot } from '../shared/instructions.js';
import type { OpenAiContext } from './openai-context.js';
import { toOpenAiError } from './openai-errors.js';

const PROVIDER = 'openai';
const CONCURRENT_CANDIDATES = 2;
/** GPT image models: PNG, WebP or JPEG files under 50 MB each. */
const EDIT_INPUT = { accepted: ['image/png', 'image/jpeg', 'image/webp'], maxSide: 2048, maxBytes: 50_000_000 } as const;
/** dall-e-2: one square PNG under 4 MB. */
const DALLE2_MAX_BYTES = 4_000_000;

/** Models that take input_fidelity 'high' (gpt-image-1-mini takes only 'low'; gpt-image-2 and later none). */
export function takesHighFidelity(model: string): boolean {
  return /^gpt-image-1(\.5)?(-\d{4}-\d{2}-\d{2})?$/.test(model);
}

/** gpt-image sizes; dall-e-3 has its own tall and wide ones. */
function sizeFor(model: string, aspect: Aspect): string {
  if (model.startsWith('dall-e-2')) return '1024x1024';
  const dalle3 = model.startsWith('dall-e-3');
  switch (aspect) {
    case 'square':
      return '1024x1024';
    case 'vertical':
      return dalle3 ? '1024x1792' : '1024x1536';
    case 'horizontal':
      return dalle3 ? '1792x1024' : '1536x1024';
    case 'auto':
      return dalle3 ? '1024x1024' : 'auto';
  }
}

export function createOpenAiImageGenerator(context: OpenAiContext & { imageModel: string }): ImageGenerator {
  return {
    async generateImages(input, onImage) {
      const sources = pickImageInputs(input.sources);
      const { images, failures } = await eachCandidate(
        input.count,
        CONCURRENT_CANDIDATES,
        input.signal,
        (index, signal) =>
          retrying(
            () =>
              openAiImage(context, {
                prompt: candidateImagePrompt(input, index),
                sources,
                aspect: input.aspect,
                signal,
                label: candidateShot(index, input.language).label,
              }),
            context.retry,
            signal,
            { provider: PROVIDER },
          ),
        onImage,
      );
      return { images, model: context.imageModel, failures };
    },
  };
}

export interface OneImage {
  prompt: string;
  sources: InputImage[];
  aspect: Aspect;
  signal: AbortSignal;
  label?: string;
}

export async function openAiImage(context: OpenAiContext & { imageModel: string }, request: OneImage): Promise<GeneratedImage> {
  const model = context.imageModel;
  const common = {
    model,
    prompt: request.prompt,
    n: 1,
    size: sizeFor(model, request.aspect),
    ...(model.startsWith('dall-e') ? { response_format: 'b64_json' as const } : {}),
  };
  let response: ImagesResponse;
  try {
    if (request.sources.length > 0 && model.startsWith('dall-e-2')) {
      const square = await squarePng(request.sources[0]!);
      response = await context.client.images.edit({ ...common, image: await toFile(square, 'source.png', { type: 'image/png' }), stream: false }, { signal: request.signal });
    } else if (request.sources.length > 0) {
      const files = await Promise.all(
        request.sources.map(async (source, i) => {
          const prepared = await prepareImage(source, EDIT_INPUT, PROVIDER);
          return toFile(prepared.data, `${source.role}-${i + 1}.${prepared.mimeType.split('/')[1]}`, { type: prepared.mimeType });
        }),
      );
      const fidelity = takesHighFidelity(model) ? { input_fidelity: 'high' as const } : {};
      response = await context.client.images.edit({ ...common, ...fidelity, image: files, stream: false }, { signal: request.signal });
    } else {
      response = await context.client.images.generate({ ...common, stream: false }, { signal: request.signal });
    }
  } catch (error) {
    throw toOpenAiError(error, request.signal);
  }
  const first = typeof response === 'object' && response !== null && Array.isArray(response.data) ? response.data[0] : undefined;
  if (first?.b64_json) return readGeneratedImage(Buffer.from(first.b64_json, 'base64'), PROVIDER, request.label);
  if (first?.url) return readGeneratedImage(await download(first.url, request.signal), PROVIDER, request.label);
  throw new ProviderError('bad_response', 'the image endpoint answered without an image', { provider: PROVIDER });
}

/** dall-e-2's one input: the image cropped to a square PNG, smaller until it is under 4 MB. */
async function squarePng(image: InputImage): Promise<Buffer> {
  try {
    for (const side of [1024, 768, 512, 256]) {
      const data = await sharp(image.data).rotate().resize({ width: side, height: side, fit: 'cover', position: sharp.strategy.attention }).png().toBuffer();
      if (data.length < DALLE2_MAX_BYTES) return data;
    }
  } catch (error) {
    throw new ProviderError('invalid_request', `an input image (${image.role}) cannot be read`, { provider: PROVIDER, cause: error });
  }
  throw new ProviderError('invalid_request', `an input image (${image.role}) cannot be made a PNG under 4 MB for dall-e-2`, { provider: PROVIDER });
}

async function download(url: string, signal: AbortSignal): Promise<Buffer> {
  try {
    const response = await fetch(url, { signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (signal.aborted) throw new ProviderError('cancelled', 'cancelled', { provider: PROVIDER, cause: error });
    throw new ProviderError('unavailable', `the generated image could not be downloaded: ${(error as Error).message}`, { provider: PROVIDER, cause: error });
  }
}
