// On-device upscaling: Real-CUGAN with onnxruntime-web in this worker, so the page stays responsive.
// The graphs are the server's own (GET <upscale>/models/<name>/graphs/...), cached by the service
// worker for offline use; the tiling and SE sharing are the server's (upscale-local/device-engine.ts).
// Backend: WebAssembly, with threads when the page is cross-origin isolated (SharedArrayBuffer),
// otherwise one thread. Cancel takes effect between tiles.
import * as ort from 'onnxruntime-web/wasm';
import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import { DeviceCancelled, type GraphManifest, runDeviceJob } from './upscale-local/device-engine';
import type { DeviceReply, DeviceRequest, DeviceRunRequest } from './upscale-local/protocol';
import { cacheBudgetFor, tileSideFor } from './upscale-local/tile-size';

const threads = self.crossOriginIsolated ? Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1)) : 1;
ort.env.wasm.wasmPaths = { wasm: new URL(wasmUrl, self.location.href).href };
ort.env.wasm.numThreads = threads;
ort.env.wasm.proxy = false;

interface LoadedModel {
  key: string;
  manifest: GraphManifest;
  sessions: Map<string, Promise<ort.InferenceSession>>;
}

let loaded: LoadedModel | undefined;
const cancelled = new Set<string>();
let queue: Promise<unknown> = Promise.resolve();

const post = (reply: DeviceReply): void => self.postMessage(reply);

class ModelsUnavailable extends Error {}

async function getJson<T>(url: string, token: string | undefined): Promise<T> {
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new ModelsUnavailable(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

async function model(req: DeviceRunRequest): Promise<LoadedModel> {
  const base = `${req.apiBase.replace(/\/$/, '')}/models/${encodeURIComponent(req.modelName)}/graphs`;
  const manifest = await getJson<GraphManifest>(`${base}/manifest.json`, req.token);
  const key = `${manifest.name}-${manifest.hash}`;
  if (loaded?.key === key) return loaded;
  // One model's sessions at a time: a tablet cannot keep several in memory.
  const previous = loaded;
  loaded = undefined;
  if (previous) for (const s of previous.sessions.values()) await (await s.catch(() => undefined))?.release();
  const sessions = new Map<string, Promise<ort.InferenceSession>>();
  const next: LoadedModel = { key, manifest, sessions };
  loaded = next;
  return next;
}

function session(m: LoadedModel, req: DeviceRunRequest, variant: string): Promise<ort.InferenceSession> {
  let s = m.sessions.get(variant);
  if (!s) {
    const file = m.manifest.variants[variant];
    if (!file) throw new Error(`model ${m.manifest.name} has no variant ${variant}`);
    const base = `${req.apiBase.replace(/\/$/, '')}/models/${encodeURIComponent(m.manifest.name)}/graphs`;
    s = (async () => {
      const res = await fetch(`${base}/${m.manifest.hash}/${file}`, {
        headers: req.token ? { Authorization: `Bearer ${req.token}` } : {},
      });
      if (!res.ok) throw new ModelsUnavailable(`${file}: HTTP ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return ort.InferenceSession.create(bytes, {
        executionProviders: ['wasm'],
        graphOptimizationLevel: 'all',
      });
    })();
    m.sessions.set(variant, s);
    s.catch(() => m.sessions.delete(variant));
  }
  return s;
}

async function decode(blob: Blob): Promise<{ rgb: Uint8Array; width: number; height: number }> {
  const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  const { width, height } = bitmap;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i]!;
    rgb[j + 1] = rgba[i + 1]!;
    rgb[j + 2] = rgba[i + 2]!;
  }
  return { rgb, width, height };
}

async function encode(rgb: Uint8Array, width: number, height: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  const image = ctx.createImageData(width, height);
  const d = image.data;
  for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) {
    d[i] = rgb[j]!;
    d[i + 1] = rgb[j + 1]!;
    d[i + 2] = rgb[j + 2]!;
    d[i + 3] = 255;
  }
  ctx.putImageData(image, 0, 0);
  return canvas.convertToBlob({ type: 'image/png' });
}

async function run(req: DeviceRunRequest): Promise<void> {
  const started = performance.now();
  try {
    if (cancelled.has(req.id)) throw new DeviceCancelled();
    const m = await model(req);
    const img = await decode(req.image);
    const memory = (navigator as WorkerNavigator & { deviceMemory?: number }).deviceMemory;
    const maxTile = req.maxTile ?? tileSideFor(memory);
    const inferenceStart = performance.now();
    const result = await runDeviceJob(ort, m.manifest, (v) => session(m, req, v), {
      ...img,
      alpha: req.alpha ?? 1,
      maxTile,
      cacheBudgetBytes: req.cacheBudgetBytes ?? cacheBudgetFor(memory),
      isCancelled: () => cancelled.has(req.id),
      onProgress: (fraction) => post({ type: 'progress', id: req.id, fraction }),
    });
    const inferenceMs = performance.now() - inferenceStart;
    const png = await encode(result.rgb, result.width, result.height);
    post({
      type: 'done',
      id: req.id,
      png,
      width: result.width,
      height: result.height,
      scale: m.manifest.geometry.scale,
      stats: {
        backend: 'wasm',
        threads,
        tiles: result.tiles,
        tileSide: maxTile,
        strategy: result.strategy,
        inferenceMs: Math.round(inferenceMs),
        totalMs: Math.round(performance.now() - started),
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code =
      error instanceof DeviceCancelled ? 'cancelled' : error instanceof ModelsUnavailable ? 'models_unavailable' : 'engine_error';
    post({ type: 'error', id: req.id, code, message });
  } finally {
    cancelled.delete(req.id);
  }
}

self.onmessage = (event: MessageEvent<DeviceRequest>) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    cancelled.add(msg.id);
    return;
  }
  // One job at a time: memory is bounded by one tile of one job.
  queue = queue.then(() => run(msg));
};
