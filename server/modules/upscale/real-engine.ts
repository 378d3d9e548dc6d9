// The production engine factory: one Real-CUGAN engine per queue slot, sharing the cores, each on
// its own thread so inference never holds the event loop.
import type { AppConfig } from '../../config.js';
import { ThreadedEngine } from './threaded-engine.js';
import type { EngineFactory, UpscaleEnginePort } from './upscale-engine-port.js';

export function realEngineFactory(opts: {
  modelsDir: string;
  threads: number;
  concurrency: number;
  maxPixels: number;
  /** each engine's job memory (UPSCALE_MEMORY_BUDGET_MB): its tiles are sized from it */
  memoryBudgetBytes: number;
  /** UPSCALE_CONVOLUTIONS: Winograd wide layers (true), direct (false), or as the CPU suits (undefined) */
  winograd: boolean | undefined;
}): EngineFactory {
  const threads = Math.max(1, Math.floor(opts.threads / opts.concurrency));
  return () => {
    const engine: UpscaleEnginePort = new ThreadedEngine({
      modelsDir: opts.modelsDir,
      threads,
      maxInputPixels: opts.maxPixels,
      memoryBudgetBytes: opts.memoryBudgetBytes,
      ...(opts.winograd === undefined ? {} : { winograd: opts.winograd }),
    });
    return engine;
  };
}

/** The engines of the upscale service and of a team worker, as the server's settings ask. */
export function configuredEngineFactory(c: AppConfig['upscale']): EngineFactory {
  return realEngineFactory({
    modelsDir: c.modelsDir,
    threads: c.threads,
    concurrency: c.concurrency,
    maxPixels: c.maxPixels,
    memoryBudgetBytes: c.memoryBudgetBytes,
    winograd: c.winograd,
  });
}
