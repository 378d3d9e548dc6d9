// The model list as the service answers it (spec §3 "Upscale model", §5 labels): the engine's
// names without file suffix, with the category and recommendation the spec derives from them
// (shared/upscale/model-labels.ts, the rule the PWA's picker reads too).
import { z } from 'zod';
import { MODEL_CATEGORIES, categoryOf, compareCategories, isRecommended, variantOf } from '../../../shared/upscale/model-labels.js';
import type { EngineModel } from './upscale-engine-port.js';

export const modelViewSchema = z
  .object({
    name: z.string(),
    scale: z.number().int(),
    denoise: z.string(),
    category: z.enum(MODEL_CATEGORIES),
    recommended: z.boolean(),
  })
  .meta({ id: 'UpscaleModel' });
export type ModelView = z.output<typeof modelViewSchema>;

export function toModelViews(models: EngineModel[]): ModelView[] {
  return models
    .map(
      (m): ModelView => ({
        name: m.name,
        scale: m.scale,
        denoise: m.denoise,
        category: categoryOf(m.name),
        recommended: isRecommended(variantOf(m.name)),
      }),
    )
    .sort((a, b) => compareCategories(a.category, b.category) || a.name.localeCompare(b.name));
}
