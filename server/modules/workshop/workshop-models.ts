// What the workshop offers: one entry per configured enhancer, the default first, the built-in
// engine named as the local preview it is.
import { message, type Locale } from '../../http/messages.js';
import type { Enhancer } from '../../providers/capabilities.js';
import type { ProviderSlot } from '../generation/engines/generation-providers.js';
import { WORKSHOP_TYPES } from './workshop-table.js';

export const ENHANCE_STYLES = ['natural', 'creative', 'professional', 'artistic'] as const;

const PROVIDER_NAMES: Record<string, string> = {
  gemini: 'Gemini (Banana)',
  openai: 'OpenAI-compatible',
  'openai-compatible': 'OpenAI-compatible',
};

export interface WorkshopModel {
  id: string;
  name: string;
  local_preview: boolean;
  default: boolean;
  types: readonly string[];
  styles: readonly string[];
}

export function workshopModels(enhancers: ProviderSlot<Enhancer>[], locale: Locale): WorkshopModel[] {
  const seen = new Set<string>();
  return enhancers
    .filter((slot) => !seen.has(slot.provider) && seen.add(slot.provider))
    .map((slot, index) => ({
      id: slot.provider,
      name: slot.localPreview ? message('builtin_engine_name', locale) : (PROVIDER_NAMES[slot.provider] ?? slot.provider),
      local_preview: slot.localPreview,
      default: index === 0,
      types: WORKSHOP_TYPES,
      styles: ENHANCE_STYLES,
    }));
}

/** The enhancer an item asked for (by model id), or the default when it named none. */
export function enhancerFor(enhancers: ProviderSlot<Enhancer>[], model: string | undefined): ProviderSlot<Enhancer> | undefined {
  return model ? enhancers.find((s) => s.provider === model) : enhancers[0];
}
