// What the workshop offers: one entry per configured enhancer, the default first, the built-in
// engine named as the local preview it is.
import { z } from 'zod';
import { ENHANCE_STYLES, WORKSHOP_TYPES } from '../../../shared/workshop/workshop-options.js';
import { message, type Locale } from '../../http/messages.js';
import type { Enhancer } from '../../providers/capabilities.js';
import type { ProviderSlot } from '../generation/engines/generation-providers.js';

export { ENHANCE_STYLES };

const PROVIDER_NAMES: Record<string, string> = {
  gemini: 'Gemini (Banana)',
  openai: 'OpenAI-compatible',
  'openai-compatible': 'OpenAI-compatible',
};

export const workshopModelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    local_preview: z.boolean(),
    default: z.boolean(),
    types: z.array(z.enum(WORKSHOP_TYPES)),
    styles: z.array(z.enum(ENHANCE_STYLES)),
  })
  .meta({ id: 'WorkshopModel' });
export type WorkshopModel = z.output<typeof workshopModelSchema>;

export function workshopModels(enhancers: ProviderSlot<Enhancer>[], locale: Locale): WorkshopModel[] {
  const seen = new Set<string>();
  return enhancers
    .filter((slot) => !seen.has(slot.provider) && seen.add(slot.provider))
    .map((slot, index) => ({
      id: slot.provider,
      name: slot.localPreview ? message('builtin_engine_name', locale) : (PROVIDER_NAMES[slot.provider] ?? slot.provider),
      local_preview: slot.localPreview,
      default: index === 0,
      types: [...WORKSHOP_TYPES],
      styles: [...ENHANCE_STYLES],
    }));
}

/** The enhancer an item asked for (by model id), or the default when it named none. */
export function enhancerFor(enhancers: ProviderSlot<Enhancer>[], model: string | undefined): ProviderSlot<Enhancer> | undefined {
  return model ? enhancers.find((s) => s.provider === model) : enhancers[0];
}
