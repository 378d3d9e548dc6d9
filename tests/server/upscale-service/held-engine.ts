// A controllable engine for the suites that must hold a job running until the test lets it go
// (queue limit, cancellation), which the real engine (tens of milliseconds per tiny image) cannot
// promise. Each upscale call waits for finish(); an aborted signal rejects it, as the real engine
// does between tiles.
import type {
  EngineJobOptions,
  EngineJobResult,
  EngineModel,
  UpscaleEnginePort,
} from '../../../server/modules/upscale/upscale-engine-port.js';
import { UpscaleError } from '../../../server/upscale/errors.js';

export interface HeldJob {
  signal: AbortSignal;
  progress: (fraction: number) => void;
  finish: () => void;
}

export class HeldEngine implements UpscaleEnginePort {
  jobs: HeldJob[] = [];
  async listModels(): Promise<EngineModel[]> {
    return [{ name: 'up2x-conservative', scale: 2, denoise: 'conservative' }];
  }
  upscale(input: Buffer, opts: EngineJobOptions): Promise<EngineJobResult> {
    return new Promise((resolve, reject) => {
      const signal = opts.signal!;
      const onAbort = () => reject(new UpscaleError('cancelled', 'upscale cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
      this.jobs.push({
        signal,
        progress: (f) => opts.onProgress?.(f),
        finish: () => {
          signal.removeEventListener('abort', onAbort);
          resolve({ data: Buffer.from(input), format: 'png', width: 2, height: 2, scale: 2, durationMs: 1 });
        },
      });
    });
  }
  async close(): Promise<void> {}
}
