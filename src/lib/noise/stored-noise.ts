// The noise estimate as kept on the pending file's IndexedDB record: the measured figures and the
// verdict, not the i18n key, so a reload shows the reason in whatever language is current.
import type { DenoiseLevel, NoiseEstimate, NoiseReason } from './noise-estimate';

export interface StoredNoise {
  blockiness: number;
  noiseSigma: number;
  level: DenoiseLevel;
  reason: NoiseReason;
}

const LEVELS: readonly string[] = ['conservative', 'denoise1x', 'denoise2x', 'denoise3x'];
const REASONS: readonly string[] = ['heavyJpeg', 'heavyNoise', 'moderate', 'light', 'clean'];

export function toStoredNoise(estimate: NoiseEstimate): StoredNoise {
  const { blockiness, noiseSigma, level, reason } = estimate;
  return { blockiness, noiseSigma, level, reason };
}

/** A record written by an older or newer build may carry anything: only a whole estimate counts. */
export function readStoredNoise(value: unknown): StoredNoise | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { blockiness, noiseSigma, level, reason } = value as Record<string, unknown>;
  if (typeof blockiness !== 'number' || !Number.isFinite(blockiness)) return undefined;
  if (typeof noiseSigma !== 'number' || !Number.isFinite(noiseSigma)) return undefined;
  if (typeof level !== 'string' || !LEVELS.includes(level)) return undefined;
  if (typeof reason !== 'string' || !REASONS.includes(reason)) return undefined;
  return { blockiness, noiseSigma, level: level as DenoiseLevel, reason: reason as NoiseReason };
}
