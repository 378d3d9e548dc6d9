// The form fields of an upscale request (spec §3, defaults from §9), validated before any work.
// Multipart fields arrive as strings; an empty field means "use the default".
import { ALPHA_RANGE, DEFAULT_ALPHA, isAlphaInRange } from '../../../shared/upscale/alpha.js';
import { UpscaleHttpError } from './upscale-http-error.js';

export type OutputFormat = 'png' | 'jpeg' | 'webp';

export interface UpscaleParams {
  modelName: string;
  tileMode: number;
  cacheMode: number;
  alpha: number;
  format: OutputFormat;
}

const FORMATS: readonly OutputFormat[] = ['png', 'jpeg', 'webp'];

function integerIn(
  fields: Record<string, string>,
  field: string,
  min: number,
  max: number,
  def: number,
): number {
  const raw = fields[field]?.trim();
  if (!raw) return def;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < min || n > max) {
    throw new UpscaleHttpError(400, 'invalid_parameter', { field, allowed: `${min}–${max}` }, { field });
  }
  return n;
}

export function parseUpscaleParams(fields: Record<string, string>): UpscaleParams {
  // A file name suffix is tolerated: the reference service's names came from .pth files.
  const modelName = (fields['model_name'] ?? '').trim().replace(/\.pth$/, '');
  if (!modelName) throw new UpscaleHttpError(400, 'missing_model', {}, { field: 'model_name' });
  const tileMode = integerIn(fields, 'tile_mode', 0, 4, 0);
  const cacheMode = integerIn(fields, 'cache_mode', 0, 3, 0);
  const rawAlpha = fields['alpha']?.trim();
  const alpha = rawAlpha ? Number(rawAlpha) : DEFAULT_ALPHA;
  if (!isAlphaInRange(alpha)) {
    throw new UpscaleHttpError(
      400,
      'invalid_parameter',
      { field: 'alpha', allowed: `${ALPHA_RANGE.min}–${ALPHA_RANGE.max}` },
      { field: 'alpha' },
    );
  }
  const rawFormat = fields['format']?.trim().toLowerCase().replace(/^jpg$/, 'jpeg');
  const format = (rawFormat || 'png') as OutputFormat;
  if (!FORMATS.includes(format)) {
    throw new UpscaleHttpError(
      400,
      'invalid_parameter',
      { field: 'format', allowed: FORMATS.join(', ') },
      { field: 'format' },
    );
  }
  return { modelName, tileMode, cacheMode, alpha, format };
}
