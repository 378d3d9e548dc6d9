// What a pending file's noise estimate suggests at the scale the user picked: the model to use
// (one the service actually offers) and the one-line reason to show with it.
import { modelForLevel } from '../../../lib/noise/noise-estimate';
import type { StoredNoise } from '../../../lib/noise/stored-noise';

export interface NoiseSuggestion {
  /** model_name, always one of the offered models. */
  modelName: string;
  reasonKey: string;
  reasonValues: { blockiness: string; noise: string };
}

export function suggestFromNoise(
  noise: StoredNoise,
  scale: number,
  offered: readonly { name: string }[],
): NoiseSuggestion | undefined {
  const names = offered.map((model) => model.name);
  const modelName = modelForLevel(noise.level, scale, names);
  if (!names.includes(modelName)) return undefined;
  return {
    modelName,
    reasonKey: `imageProcessing.noise.reason.${noise.reason}`,
    reasonValues: { blockiness: noise.blockiness.toFixed(2), noise: noise.noiseSigma.toFixed(1) },
  };
}
