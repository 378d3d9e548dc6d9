// Spec §5's model labels: everything the picker shows is derived from the model's name, by the
// rule the upscale service answers with (shared/upscale/model-labels.ts); here it is put into words.
import {
  categoryOf,
  compareCategories,
  isRecommended,
  variantOf,
  type ModelCategory,
  type ModelVariant,
} from '../../../../shared/upscale/model-labels';

export type { ModelCategory, ModelVariant };

/** One entry of GET /models as the upscale service sends it. */
export interface RawModel {
  name: string;
  scale?: number;
  denoise?: number | string;
  [key: string]: unknown;
}

export interface UpscaleModel {
  /** The model_name to send: the .pth suffix removed. */
  name: string;
  scale: number;
  category: ModelCategory;
  variant: ModelVariant;
  displayName: string;
  description: string;
  recommended: boolean;
  recommendReason?: string;
}

/** Translation function (i18next's t, or a fixed table in tests). */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

const K = 'imageProcessing.models';

export function modelNameOf(raw: string): string {
  return raw.replace(/\.pth$/i, '');
}

export function scaleOf(name: string, reported?: number): number {
  if (typeof reported === 'number' && reported > 0) return reported;
  const m = /up(\d+)x/.exec(name);
  return m ? Number(m[1]) : 1;
}

export function describeModel(raw: RawModel, t: Translate): UpscaleModel {
  const name = modelNameOf(raw.name);
  const category = categoryOf(name);
  const scale = scaleOf(name, raw.scale);
  const variant = variantOf(name);
  const scaleLabel = category === 'other' ? `${scale}x` : category;
  const variantLabel = variant === 'unknown' ? name : t(`${K}.variant.${variant}`);
  const recommended = isRecommended(variant);
  return {
    name,
    scale,
    category,
    variant,
    displayName: t(`${K}.displayName`, { scale: scaleLabel, variant: variantLabel }),
    description: variant === 'unknown' ? '' : t(`${K}.description.${variant}`),
    recommended,
    recommendReason: recommended ? t(`${K}.reason.${variant}`) : undefined,
  };
}

/** 2x first, then by category, then by display name. */
export function compareModels(a: UpscaleModel, b: UpscaleModel): number {
  return (
    compareCategories(a.category, b.category) || a.displayName.localeCompare(b.displayName)
  );
}

export function buildCatalog(raw: readonly RawModel[], t: Translate): UpscaleModel[] {
  return raw
    .filter((m) => typeof m?.name === 'string' && m.name.length > 0)
    .map((m) => describeModel(m, t))
    .sort(compareModels);
}

/** The model picked when nothing is chosen yet: the first recommended 2x model. */
export function defaultModel(models: readonly UpscaleModel[]): UpscaleModel | undefined {
  return (
    models.find((m) => m.category === '2x' && m.variant === 'conservative') ??
    models.find((m) => m.recommended) ??
    models[0]
  );
}
