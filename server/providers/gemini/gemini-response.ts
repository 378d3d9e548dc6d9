// Reading a GenerateContentResponse: refusals first (promptFeedback.blockReason for the prompt,
// finishReason for the answer), then the text and inline images of the first candidate.
// Thought parts of thinking models are not the answer and are skipped.
import type { FinishReason, GenerateContentResponse, Part } from '@google/genai';
import { ProviderError, type InputImage } from '../capabilities.js';
import { prepareImages } from '../shared/images.js';

const PROVIDER = 'gemini';

/**
 * Gemini takes these as inline data (not GIF); larger images are scaled to 2048 px, the model sees
 * less. A request with inline data must stay under 20 MB in all, and base64 makes the bytes a third
 * larger: the images of one request get 12 MB (16 MB as base64), the rest is headroom for the text,
 * the schema and the JSON around them. Past it, the largest are re-encoded as smaller JPEGs.
 */
const INLINE_IMAGES = { accepted: ['image/png', 'image/jpeg', 'image/webp'], maxSide: 2048, maxTotalBytes: 12_000_000 } as const;

/** The images of one request as inline parts, together within the request limit. */
export async function inlineImageParts(images: InputImage[]): Promise<Part[]> {
  const prepared = await prepareImages(images, INLINE_IMAGES, PROVIDER);
  return prepared.map((p) => ({ inlineData: { mimeType: p.mimeType, data: p.data.toString('base64') } }));
}

/** Throws 'safety' when the prompt itself was blocked (no candidates then). */
export function checkPromptFeedback(response: GenerateContentResponse): void {
  const feedback = response.promptFeedback;
  if (feedback?.blockReason) {
    const detail = feedback.blockReasonMessage ? `: ${feedback.blockReasonMessage}` : '';
    throw new ProviderError('safety', `Gemini blocked the request (${feedback.blockReason})${detail}`, { provider: PROVIDER });
  }
}

const SAFETY_REASONS = new Set<string>([
  'SAFETY',
  'IMAGE_SAFETY',
  'PROHIBITED_CONTENT',
  'IMAGE_PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
  'RECITATION',
  'IMAGE_RECITATION',
]);

/**
 * Throws unless the answer finished normally. Safety stops are 'safety'; NO_IMAGE, MAX_TOKENS,
 * OTHER and reasons this code does not know are 'bad_response' (nothing usable came back);
 * `undefined` means the stream ended before the model said it was done.
 */
export function checkFinishReason(reason: FinishReason | string | undefined, what: string): void {
  if (reason === 'STOP') return;
  if (reason === undefined) {
    throw new ProviderError('bad_response', `Gemini's ${what} ended before it was complete`, { provider: PROVIDER });
  }
  if (SAFETY_REASONS.has(reason)) {
    throw new ProviderError('safety', `Gemini stopped the ${what} for safety (${reason})`, { provider: PROVIDER });
  }
  if (reason === 'NO_IMAGE') throw new ProviderError('bad_response', `Gemini made no image (NO_IMAGE)`, { provider: PROVIDER });
  if (reason === 'MAX_TOKENS') throw new ProviderError('bad_response', `Gemini's ${what} was cut off at its length limit`, { provider: PROVIDER });
  throw new ProviderError('bad_response', `Gemini's ${what} stopped early (${reason})`, { provider: PROVIDER });
}

function answerParts(response: GenerateContentResponse): Part[] {
  return (response.candidates?.[0]?.content?.parts ?? []).filter((part) => !part.thought);
}

export function textOf(response: GenerateContentResponse): string {
  return answerParts(response)
    .map((part) => part.text ?? '')
    .join('');
}

export function inlineImagesOf(response: GenerateContentResponse): Buffer[] {
  return answerParts(response)
    .filter((part) => part.inlineData?.data && (part.inlineData.mimeType ?? 'image/').startsWith('image/'))
    .map((part) => Buffer.from(part.inlineData!.data!, 'base64'));
}

export function finishReasonOf(response: GenerateContentResponse): FinishReason | undefined {
  return response.candidates?.[0]?.finishReason;
}
