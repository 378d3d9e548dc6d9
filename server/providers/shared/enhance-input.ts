// What a workshop item asks for, checked the same way by every adapter.
import { ProviderError, type EnhanceInput } from '../capabilities.js';

/**
 * Confidence reported for an image-only result. Image models do not grade their own output, so
 * this is a fixed prior ("came back normally, not verified"), lower than a text model's typical
 * self-assessment, rather than a number that pretends to be measured.
 */
export const IMAGE_ONLY_CONFIDENCE = 0.7;

export function requireEnhanceInput(input: EnhanceInput, provider: string): { wantsText: boolean; wantsImages: boolean } {
  const hasText = Boolean(input.text?.trim());
  const wantsText = input.type === 'text' || (input.type === 'mixed' && hasText);
  const wantsImages = input.type === 'image' || (input.type === 'mixed' && input.images.length > 0);
  if (wantsText && !hasText) throw new ProviderError('invalid_request', 'a text item needs text', { provider });
  if (input.type === 'image' && input.images.length === 0) throw new ProviderError('invalid_request', 'an image item needs an image', { provider });
  if (!wantsText && !wantsImages) throw new ProviderError('invalid_request', 'a mixed item needs text or images', { provider });
  return { wantsText, wantsImages };
}
