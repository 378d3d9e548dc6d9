// Spec §5's model labels, derived from the model's name alone: up2x is 2x, up4x is 4x (anything
// else, such as up3x, is "other"); conservative, no-denoise and denoise1x/2x/3x name the variant;
// conservative and denoise2x are the recommended ones; 2x sorts first, then 4x, then the rest. The
// upscale service answers its model list with these, the PWA's picker shows them.
export const MODEL_CATEGORIES = ['2x', '4x', 'other'] as const;
export type ModelCategory = (typeof MODEL_CATEGORIES)[number];

export const MODEL_VARIANTS = ['conservative', 'no-denoise', 'denoise1x', 'denoise2x', 'denoise3x'] as const;
export type ModelVariant = (typeof MODEL_VARIANTS)[number] | 'unknown';

const RECOMMENDED: readonly ModelVariant[] = ['conservative', 'denoise2x'];

export function categoryOf(name: string): ModelCategory {
  if (name.includes('up2x')) return '2x';
  if (name.includes('up4x')) return '4x';
  return 'other';
}

export function variantOf(name: string): ModelVariant {
  if (name.includes('conservative')) return 'conservative';
  if (name.includes('no-denoise')) return 'no-denoise';
  if (name.includes('denoise1x')) return 'denoise1x';
  if (name.includes('denoise2x')) return 'denoise2x';
  if (name.includes('denoise3x')) return 'denoise3x';
  return 'unknown';
}

export function isRecommended(variant: ModelVariant): boolean {
  return RECOMMENDED.includes(variant);
}

/** Orders categories as the spec sorts them: 2x, 4x, other. */
export function compareCategories(a: ModelCategory, b: ModelCategory): number {
  return MODEL_CATEGORIES.indexOf(a) - MODEL_CATEGORIES.indexOf(b);
}
