// The JSON columns read back: a row written by an older version or edited by hand must not break a
// history page, so anything unexpected reads as empty.
import type { AnalysisData, CameraMove, FabricInfo } from '../../../providers/capabilities.js';
import { CAMERA_MOVES } from '../../../providers/capabilities.js';

const record = (json: string | null): Record<string, unknown> | undefined => {
  if (!json) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

export function parseFabric(json: string | null): FabricInfo {
  const value = record(json) ?? {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === 'string')) as FabricInfo;
}

export function parseAnalysis(json: string | null): AnalysisData | undefined {
  return record(json) as AnalysisData | undefined;
}

export function parseCamera(json: string | null): CameraMove[] {
  try {
    const value: unknown = JSON.parse(json ?? '[]');
    return Array.isArray(value) ? value.filter((m): m is CameraMove => (CAMERA_MOVES as readonly unknown[]).includes(m)) : [];
  } catch {
    return [];
  }
}

export function parseObject(json: string | null): Record<string, unknown> | undefined {
  return record(json);
}
