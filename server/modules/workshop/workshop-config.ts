// An item's config as stored: model, creativity and precision (0..1), output style (spec §3).
import { z } from 'zod';
import { ENHANCE_STYLES } from '../../../shared/workshop/workshop-options.js';
import { parseObject } from '../generation/store/stored-json.js';
import type { EnhanceStyle } from '../../providers/capabilities.js';

export const workshopConfigSchema = z
  .object({
    model: z.string().optional(),
    creativity: z.number().meta({ description: '0..1' }),
    precision: z.number().meta({ description: '0..1' }),
    style: z.enum(ENHANCE_STYLES),
  })
  .meta({ id: 'WorkshopConfig' });
export type WorkshopConfig = z.output<typeof workshopConfigSchema>;

export const DEFAULT_CONFIG: WorkshopConfig = { creativity: 0.5, precision: 0.5, style: 'natural' };

export function parseConfig(json: string | null): WorkshopConfig {
  const o = parseObject(json) ?? {};
  const unit = (v: unknown, fallback: number) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : fallback);
  return {
    ...(typeof o.model === 'string' ? { model: o.model } : {}),
    creativity: unit(o.creativity, DEFAULT_CONFIG.creativity),
    precision: unit(o.precision, DEFAULT_CONFIG.precision),
    style: (ENHANCE_STYLES as readonly unknown[]).includes(o.style) ? (o.style as EnhanceStyle) : DEFAULT_CONFIG.style,
  };
}

export function parseFileIds(json: string | null): string[] {
  try {
    const value: unknown = JSON.parse(json ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
