// What the service needs of an upscale engine. server/upscale/engine.ts's UpscaleEngine satisfies
// it structurally (checked where the real engines are made); tests that must hold a job still
// can implement it. Failures are UpscaleError from server/upscale/errors.ts.
export interface EngineJobOptions {
  modelName: string;
  tileMode?: number;
  cacheMode?: number;
  alpha?: number;
  format?: 'png' | 'jpeg' | 'webp';
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

export interface EngineJobResult {
  /**
   * The encoded image, handed over: shared with nothing else (not the input), so the service
   * frees it as soon as it is stored.
   */
  data: Buffer;
  format: 'png' | 'jpeg' | 'webp';
  width: number;
  height: number;
  scale: number;
  durationMs: number;
}

export interface EngineModel {
  name: string;
  scale: number;
  denoise: string;
}

export interface UpscaleEnginePort {
  listModels(): Promise<EngineModel[]>;
  upscale(input: Buffer, opts: EngineJobOptions): Promise<EngineJobResult>;
  close(): Promise<void>;
}

/** Makes the engine for one queue slot (slot 0 … concurrency−1). */
export type EngineFactory = (slot: number) => UpscaleEnginePort;
