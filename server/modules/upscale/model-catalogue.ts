// The model list as the service answers it (spec §3 "Upscale model", §5 labels): the engine's
// names without file suffix, with the category and recommendation the spec derives from them
// (shared/upscale/model-labels.ts, the rule the PWA's picker reads too).
import { z } from 'zod';
import { MODEL_CATEGORIES, categoryOf, compareCategories, isRecommended, variantOf } from '../../../shared/upscale/model-labels.js';
import type { EngineModel } from './upscale-engine-port.js';
import { UpscaleHttpError } from './upscale-http-error.js';

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

/** Refuses a model the list does not name (400 unknown_model, on the form's model_name field). */
export function assertListedModel(models: readonly ModelView[], name: string): void {
  if (!models.some((m) => m.name === name))
    throw new UpscaleHttpError(400, 'unknown_model', { model: name }, { field: 'model_name' });
}
