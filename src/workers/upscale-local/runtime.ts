// Which onnxruntime-web build the on-device upscaler runs on. Each build is loaded on first use
// only (its own chunk and its own wasm binary: 14 MB for WebAssembly, 27 MB for WebGPU, which
// needs the asynchronous build), so a tablet without WebGPU never downloads the larger one.
//   webgpu  when the browser offers a WebGPU adapter (Chromium and Safari on current tablets);
//   wasm    otherwise, with threads when the page is cross-origin isolated (the server sends COOP
//           and COEP), one thread when it is not (plain http on a fair's LAN).
import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import webGpuWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type * as OrtWasm from 'onnxruntime-web/wasm';
import type { DeviceBackend } from './protocol';

/** Both builds export the same API (onnxruntime-common's). */
type OrtModule = typeof OrtWasm;

export interface OrtRuntime {
  backend: DeviceBackend;
  ort: OrtModule;
  threads: number;
}

/** The graphs (or onnxruntime's own files) could not be fetched: offline without a cached copy. */
export class ModelsUnavailable extends Error {}

/** Up to four threads (onnxruntime's own cap), only where SharedArrayBuffer exists. */
export function threadsFor(crossOriginIsolated: boolean, hardwareConcurrency: number | undefined): number {
  return crossOriginIsolated ? Math.max(1, Math.min(4, hardwareConcurrency || 1)) : 1;
}

const threads = threadsFor(self.crossOriginIsolated, navigator.hardwareConcurrency);
let wasm: Promise<OrtRuntime> | undefined;
let webGpu: Promise<OrtRuntime | undefined> | undefined;
let webGpuBroken = false;

function configure(ort: OrtModule, binaryUrl: string): void {
  ort.env.wasm.wasmPaths = { wasm: new URL(binaryUrl, self.location.href).href };
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.proxy = false;
}

function loadWasm(): Promise<OrtRuntime> {
  wasm ??= import('onnxruntime-web/wasm').then((ort) => {
    configure(ort, wasmUrl);
    return { backend: 'wasm' as const, ort, threads };
  });
  return wasm;
}

/** The WebGPU build, or undefined when this browser has no usable adapter. */
function loadWebGpu(): Promise<OrtRuntime | undefined> {
  webGpu ??= (async () => {
    const gpu = (navigator as WorkerNavigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    const adapter = await gpu?.requestAdapter().catch(() => null);
    if (!adapter) return undefined;
    const ort = await import('onnxruntime-web/webgpu');
    configure(ort, webGpuWasmUrl);
    return { backend: 'webgpu' as const, ort, threads };
  })();
  return webGpu;
}

/**
 * The runtime for a job: 'wasm' forces WebAssembly, 'webgpu' forces WebGPU (an error without an
 * adapter), and no choice takes WebGPU when it is there and has not failed before.
 */
export async function runtimeFor(requested: DeviceBackend | undefined): Promise<OrtRuntime> {
  if (requested === 'wasm') return loadWasm();
  if (requested === 'webgpu') {
    const rt = await loadWebGpu();
    if (!rt) throw new Error('this browser offers no WebGPU adapter');
    return rt;
  }
  if (!webGpuBroken) {
    const rt = await loadWebGpu().catch(() => undefined);
    if (rt) return rt;
  }
  return loadWasm();
}

/** After a WebGPU failure, the rest of this worker's jobs run on WebAssembly. */
export function webGpuFailed(error: unknown): void {
  webGpuBroken = true;
  console.warn('on-device upscaling: WebGPU failed, using WebAssembly from now on', error);
}
