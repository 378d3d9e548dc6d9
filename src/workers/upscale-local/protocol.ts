// Messages between the page (or the queue worker) and src/workers/upscale-local.worker.ts, which
// upscales on this device with onnxruntime-web and the server's own converted graphs.

export type DeviceBackend = 'webgpu' | 'wasm';

export interface DeviceRunRequest {
  type: 'run';
  id: string;
  /** the image as uploaded (PNG, JPEG or WebP) */
  image: Blob;
  modelName: string;
  alpha?: number;
  /** the upscale group's base URL (config.json's upscale entry, '/upscale-api' on the same origin) */
  apiBase: string;
  token?: string;
  /** largest tile side in input pixels; chosen from navigator.deviceMemory when absent */
  maxTile?: number;
  /** bytes of cached features allowed (0 forces the recompute strategy); from deviceMemory when absent */
  cacheBudgetBytes?: number;
  /** 'wasm' forces WebAssembly (the benchmark and the parity test) */
  backend?: DeviceBackend;
}

export interface DeviceCancelRequest {
  type: 'cancel';
  id: string;
}

export type DeviceRequest = DeviceRunRequest | DeviceCancelRequest;

export interface DeviceRunStats {
  backend: DeviceBackend;
  threads: number;
  tiles: number;
  tileSide: number;
  strategy: 'single' | 'cached' | 'recompute';
  /** inference and tiling only, without decoding, encoding and graph downloads */
  inferenceMs: number;
  totalMs: number;
}

export type DeviceReply =
  | { type: 'progress'; id: string; fraction: number }
  | { type: 'done'; id: string; png: Blob; width: number; height: number; scale: number; stats: DeviceRunStats }
  | { type: 'error'; id: string; code: 'cancelled' | 'models_unavailable' | 'engine_error'; message: string };
