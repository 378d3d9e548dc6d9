// Messages between the service (main thread) and the engine thread. onnxruntime-node runs each
// inference on the thread that calls it, so the engine lives on its own thread: sign-in, uploads
// and progress streams keep answering while a tile is being computed.
import type { UpscaleEngineOptions } from '../../upscale/engine.js';
import type { UpscaleErrorCode } from '../../upscale/errors.js';
import type { EngineJobResult } from './upscale-engine-port.js';

/** The thread's UpscaleEngine options: named as the engine names them, so none is dropped on the way. */
export interface EngineThreadOptions
  extends Pick<UpscaleEngineOptions, 'modelsDir' | 'memoryBudgetBytes' | 'featureCacheDir' | 'spinning' | 'winograd'> {
  threads: number;
  maxInputPixels: number;
}

export type EngineJobParams = {
  modelName: string;
  tileMode?: number;
  cacheMode?: number;
  alpha?: number;
  format?: 'png' | 'jpeg' | 'webp';
};

export type ToEngine =
  | { type: 'upscale'; id: number; input: Uint8Array; params: EngineJobParams }
  | { type: 'abort'; id: number }
  /** Stop: running jobs are cancelled at their next tile, then the thread exits by itself. */
  | { type: 'close' };

export interface ThreadError {
  code: UpscaleErrorCode;
  message: string;
}

export type FromEngine =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'result'; id: number; result: Omit<EngineJobResult, 'data'> & { data: Uint8Array } }
  | { type: 'error'; id: number; error: ThreadError };
