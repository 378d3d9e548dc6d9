// Config rules of a run (spec §3): the model is one the server offers (its default when the
// remembered one is gone), creativity and precision are whole percents 0..100 sent as 0..1, the
// output style one of four. Remembered per user in local storage.
import { OUTPUT_STYLES, type OutputStyle, type WorkshopConfig, type WorkshopModel } from './workshop-item';

export interface ConfigDraft {
  model: string | null;
  /** 0..100 */
  creativity: number;
  /** 0..100 */
  precision: number;
  style: OutputStyle;
}

export const DEFAULT_DRAFT: ConfigDraft = { model: null, creativity: 50, precision: 50, style: 'natural' };

const STORAGE_PREFIX = 'loom.workshop.config:';

export function percent(value: unknown, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.round(Math.min(100, Math.max(0, value)));
}

export function isStyle(value: unknown): value is OutputStyle {
  return typeof value === 'string' && (OUTPUT_STYLES as readonly string[]).includes(value);
}

/** A stored value read back defensively: anything odd falls back to the defaults. */
export function parseDraft(raw: string | null): ConfigDraft {
  let value: unknown;
  try {
    value = raw ? JSON.parse(raw) : null;
  } catch {
    value = null;
  }
  if (typeof value !== 'object' || value === null) return DEFAULT_DRAFT;
  const o = value as Record<string, unknown>;
  return {
    model: typeof o.model === 'string' && o.model ? o.model : null,
    creativity: percent(o.creativity, DEFAULT_DRAFT.creativity),
    precision: percent(o.precision, DEFAULT_DRAFT.precision),
    style: isStyle(o.style) ? o.style : DEFAULT_DRAFT.style,
  };
}

/** The model to use: the chosen one if still offered, else the server's default, else the first. */
export function resolveModel(chosen: string | null, models: readonly WorkshopModel[] | undefined): string | null {
  if (!models || models.length === 0) return chosen;
  if (chosen && models.some((m) => m.id === chosen)) return chosen;
  return (models.find((m) => m.default) ?? models[0])!.id;
}

/** What the server receives as `config`. */
export function toRequestConfig(draft: ConfigDraft, models: readonly WorkshopModel[] | undefined): WorkshopConfig {
  const model = resolveModel(draft.model, models);
  return {
    ...(model ? { model } : {}),
    creativity: percent(draft.creativity, 50) / 100,
    precision: percent(draft.precision, 50) / 100,
    style: draft.style,
  };
}

export function configStorageKey(userKey: string): string {
  return `${STORAGE_PREFIX}${userKey}`;
}

export function loadDraft(storage: Pick<Storage, 'getItem'>, userKey: string | null): ConfigDraft {
  if (!userKey) return DEFAULT_DRAFT;
  return parseDraft(storage.getItem(configStorageKey(userKey)));
}

export function saveDraft(storage: Pick<Storage, 'setItem'>, userKey: string | null, draft: ConfigDraft): void {
  if (!userKey) return;
  storage.setItem(configStorageKey(userKey), JSON.stringify(draft));
}
