// The model list as the service answers it (spec §3 "Upscale model", §5 labels): the engine's
// names without file suffix, with the category and recommendation the spec derives from them.
import { z } from 'zod';
import type { EngineModel } from './upscale-engine-port.js';
import { UpscaleHttpError } from './upscale-http-error.js';

export const modelViewSchema = z
  .object({
    name: z.string(),
    scale: z.number().int(),
    denoise: z.string(),
    category: z.enum(['2x', '4x', 'other']),
    recommended: z.boolean(),
  })
  .meta({ id: 'UpscaleModel' });
export type ModelView = z.output<typeof modelViewSchema>;

const RECOMMENDED = new Set(['conservative', 'denoise2x']);
const CATEGORY_ORDER = { '2x': 0, '4x': 1, other: 2 } as const;

export function toModelViews(models: EngineModel[]): ModelView[] {
  return models
    .map((m): ModelView => {
      const category = m.scale === 2 ? '2x' : m.scale === 4 ? '4x' : 'other';
      return {
        name: m.name,
        scale: m.scale,
        denoise: m.denoise,
        category,
        recommended: RECOMMENDED.has(m.denoise),
      };
    })
    .sort((a, b) => CATEGORY_ORDER[a.category] - CATEGORY_ORDER[b.category] || a.name.localeCompare(b.name));
}

/** Refuses a model the list does not name (400 unknown_model, on the form's model_name field). */
export function assertListedModel(models: readonly ModelView[], name: string): void {
  if (!models.some((m) => m.name === name))
    throw new UpscaleHttpError(400, 'unknown_model', { model: name }, { field: 'model_name' });
}
