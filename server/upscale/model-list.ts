// The Real-CUGAN models on offer: those whose weights (.param and .bin) are in the models folder.
// Apart from the engine (no onnxruntime here), so the service lists them without an engine.
import { readdir } from 'node:fs/promises';
import { weightsDir } from './model-store.js';

export interface ModelInfo {
  name: string;
  scale: number;
  denoise: string;
}

const MODEL_NAME = /^up([234])x-(conservative|no-denoise|denoise[123]x)$/;

export function parseModelName(name: string): ModelInfo | undefined {
  const m = MODEL_NAME.exec(name);
  return m ? { name, scale: Number(m[1]), denoise: m[2]! } : undefined;
}

/** The models in the models folder, by scale then name. */
export async function listModelFiles(modelsDir: string): Promise<ModelInfo[]> {
  const files = await readdir(weightsDir(modelsDir));
  return files
    .filter((f) => f.endsWith('.param') && files.includes(f.replace(/\.param$/, '.bin')))
    .map((f) => parseModelName(f.replace(/\.param$/, '')))
    .filter((m): m is ModelInfo => m !== undefined)
    .sort((a, b) => a.scale - b.scale || a.name.localeCompare(b.name));
}
