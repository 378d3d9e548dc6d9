// The production engine factory: one Real-CUGAN engine per queue slot, sharing the cores.
import { UpscaleEngine } from '../../upscale/engine.js';
import type { EngineFactory, UpscaleEnginePort } from './upscale-engine-port.js';

export function realEngineFactory(opts: {
  modelsDir: string;
  threads: number;
  concurrency: number;
  maxPixels: number;
}): EngineFactory {
  const threads = Math.max(1, Math.floor(opts.threads / opts.concurrency));
  return () => {
    const engine: UpscaleEnginePort = new UpscaleEngine({
      modelsDir: opts.modelsDir,
      threads,
      maxInputPixels: opts.maxPixels,
    });
    return engine;
  };
}
