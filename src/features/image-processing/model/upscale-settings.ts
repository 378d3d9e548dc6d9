// The chosen model and advanced parameters, remembered on this device between visits.
// Defaults are spec §3's: tile_mode 0, cache_mode 0, alpha 1.
import { ALPHA_RANGE, DEFAULT_ALPHA } from '../../../../shared/upscale/alpha';

export { ALPHA_RANGE };

export interface UpscaleSettings {
  modelName: string | null;
  tileMode: number;
  cacheMode: number;
  alpha: number;
  /** 'auto': on the server, on this device while the server cannot be reached; 'device': always here. */
  where: UpscaleWhere;
}

export type UpscaleWhere = 'auto' | 'device';
export const WHERE_OPTIONS: readonly UpscaleWhere[] = ['auto', 'device'];

export const DEFAULT_SETTINGS: UpscaleSettings = { modelName: null, tileMode: 0, cacheMode: 0, alpha: DEFAULT_ALPHA, where: 'auto' };

export const TILE_MODES = [0, 1, 2, 3, 4] as const;
export const CACHE_MODES = [0, 1, 2, 3] as const;

const KEY = 'loom.upscaleSettings';

function clamp(v: unknown, min: number, max: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

export function readSettings(storage: Pick<Storage, 'getItem'> = localStorage): UpscaleSettings {
  try {
    const raw = JSON.parse(storage.getItem(KEY) ?? '{}') as Partial<UpscaleSettings>;
    return {
      modelName: typeof raw.modelName === 'string' ? raw.modelName : null,
      tileMode: Math.round(clamp(raw.tileMode, 0, 4, 0)),
      cacheMode: Math.round(clamp(raw.cacheMode, 0, 3, 0)),
      alpha: clamp(raw.alpha, ALPHA_RANGE.min, ALPHA_RANGE.max, DEFAULT_ALPHA),
      where: raw.where === 'device' ? 'device' : 'auto',
    };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function writeSettings(
  settings: UpscaleSettings,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  storage.setItem(KEY, JSON.stringify(settings));
}
