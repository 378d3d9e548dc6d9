// The production engine factory: one Real-CUGAN engine per queue slot, sharing the cores, each on
// its own thread so inference never holds the event loop.
import { ThreadedEngine } from './threaded-engine.js';
import type { EngineFactory, UpscaleEnginePort } from './upscale-engine-port.js';

export function realEngineFactory(opts: {
  modelsDir: string;
  threads: number;
  concurrency: number;
  maxPixels: number;
  /** each engine's job memory (UPSCALE_MEMORY_BUDGET_MB): its tiles are sized from it */
  memoryBudgetBytes: number;
}): EngineFactory {
  const threads = Math.max(1, Math.floor(opts.threads / opts.concurrency));
  return () => {
    const engine: UpscaleEnginePort = new ThreadedEngine({
      modelsDir: opts.modelsDir,
      threads,
      maxInputPixels: opts.maxPixels,
      memoryBudgetBytes: opts.memoryBudgetBytes,
    });
    return engine;
  };
}
