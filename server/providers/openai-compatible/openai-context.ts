// What every OpenAI-compatible capability shares: one SDK client and the model names.
import OpenAI from 'openai';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { InputImage } from '../capabilities.js';
import { prepareImages, toDataUrl } from '../shared/images.js';
import type { RetryPolicy } from '../shared/retry.js';

export interface OpenAiContext {
  client: OpenAI;
  textModel: string;
  /** Absent for endpoints without an image side (Ollama, LM Studio, vLLM serving a chat model). */
  imageModel?: string;
  /** 429/5xx retries of one request (one candidate, one analysis stream) inside the adapter. */
  retry: RetryPolicy;
}

export function createOpenAiClient(apiKey: string, baseUrl: string | undefined, timeoutMs: number): OpenAI {
  // maxRetries 0: ours (shared/retry.ts) retry one candidate at a time and read every rate-limit
  // hint; what outlasts them goes to the job runner with retryAfterMs.
  return new OpenAI({ apiKey, ...(baseUrl ? { baseURL: baseUrl } : {}), maxRetries: 0, timeout: timeoutMs });
}

/**
 * Vision input: PNG, JPEG, WebP (GIF re-encoded), at most 2048 px on the long side. OpenAI takes
 * up to 50 MB of payload per request; the data URLs are base64, a third larger than the files, so
 * the images of one request get 30 MB (40 MB as text) and the largest are re-encoded past it.
 */
const VISION_IMAGES = { accepted: ['image/png', 'image/jpeg', 'image/webp'], maxSide: 2048, maxTotalBytes: 30_000_000 } as const;

/** The images of one request as image_url parts, together within the request limit. */
export async function imageUrlParts(images: InputImage[]): Promise<ChatCompletionContentPart[]> {
  const prepared = await prepareImages(images, VISION_IMAGES, 'openai');
  return prepared.map((p) => ({ type: 'image_url' as const, image_url: { url: toDataUrl(p) } }));
}
