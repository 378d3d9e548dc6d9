// Spec §5's model labels: everything the picker shows is derived from the model's name.
// up2x → 2x, up4x → 4x (anything else, such as up3x, is "other"); conservative, no-denoise and
// denoise1x/2x/3x name the variant; conservative and denoise2x are the recommended ones.

export type ModelCategory = '2x' | '4x' | 'other';
export type ModelVariant =
  'conservative' | 'no-denoise' | 'denoise1x' | 'denoise2x' | 'denoise3x' | 'unknown';

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

export function categoryOf(name: string): ModelCategory {
  if (name.includes('up2x')) return '2x';
  if (name.includes('up4x')) return '4x';
  return 'other';
}

export function scaleOf(name: string, reported?: number): number {
  if (typeof reported === 'number' && reported > 0) return reported;
  const m = /up(\d+)x/.exec(name);
  return m ? Number(m[1]) : 1;
}

export function variantOf(name: string): ModelVariant {
  if (name.includes('conservative')) return 'conservative';
  if (name.includes('no-denoise')) return 'no-denoise';
  if (name.includes('denoise1x')) return 'denoise1x';
  if (name.includes('denoise2x')) return 'denoise2x';
  if (name.includes('denoise3x')) return 'denoise3x';
  return 'unknown';
}

export function describeModel(raw: RawModel, t: Translate): UpscaleModel {
  const name = modelNameOf(raw.name);
  const category = categoryOf(name);
  const scale = scaleOf(name, raw.scale);
  const variant = variantOf(name);
  const scaleLabel = category === 'other' ? `${scale}x` : category;
  const variantLabel = variant === 'unknown' ? name : t(`${K}.variant.${variant}`);
  const recommended = variant === 'conservative' || variant === 'denoise2x';
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

const CATEGORY_ORDER: Record<ModelCategory, number> = { '2x': 0, '4x': 1, other: 2 };

/** 2x first, then by category, then by display name. */
export function compareModels(a: UpscaleModel, b: UpscaleModel): number {
  return (
    CATEGORY_ORDER[a.category] - CATEGORY_ORDER[b.category] || a.displayName.localeCompare(b.displayName)
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
