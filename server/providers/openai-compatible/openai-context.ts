// What every OpenAI-compatible capability shares: one SDK client and the model names.
import OpenAI from 'openai';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { InputImage } from '../capabilities.js';
import { prepareImage, toDataUrl } from '../shared/images.js';

export interface OpenAiContext {
  client: OpenAI;
  textModel: string;
  /** Absent for endpoints without an image side (Ollama, LM Studio, vLLM serving a chat model). */
  imageModel?: string;
}

export function createOpenAiClient(apiKey: string, baseUrl: string | undefined, timeoutMs: number): OpenAI {
  // maxRetries 0: the job runner retries, honouring the retryAfterMs we pass on.
  return new OpenAI({ apiKey, ...(baseUrl ? { baseURL: baseUrl } : {}), maxRetries: 0, timeout: timeoutMs });
}

/** Vision input: PNG, JPEG, WebP (GIF re-encoded), at most 2048 px on the long side. */
const VISION_IMAGE = { accepted: ['image/png', 'image/jpeg', 'image/webp'], maxSide: 2048 } as const;

export async function imageUrlParts(images: InputImage[]): Promise<ChatCompletionContentPart[]> {
  return Promise.all(
    images.map(async (image) => ({
      type: 'image_url' as const,
      image_url: { url: toDataUrl(await prepareImage(image, VISION_IMAGE, 'openai')) },
    })),
  );
}
