// On-device upscaling: Real-CUGAN with onnxruntime-web in this worker, so the page stays responsive.
// The graphs are the server's own (GET <upscale>/models/<name>/graphs/...), cached by the service
// worker for offline use; the tiling and SE sharing are the server's (upscale-local/device-engine.ts).
// Backend (upscale-local/runtime.ts): WebGPU when the browser offers an adapter, else WebAssembly
// with threads when the page is cross-origin isolated. Cancel takes effect between tiles.
import type { DeviceGraphManifest } from '../../shared/upscale/graph-manifest';
import { DeviceCancelled, runDeviceJob } from './upscale-local/device-engine';
import type { DeviceReply, DeviceRequest, DeviceRunRequest } from './upscale-local/protocol';
import { type OrtRuntime, ModelsUnavailable, runtimeFor, webGpuFailed } from './upscale-local/runtime';
import { decode, encode, upscaleAlpha } from './upscale-local/image-codec';
import { cacheBudgetFor, tileSideFor } from './upscale-local/tile-size';

type Session = Awaited<ReturnType<OrtRuntime['ort']['InferenceSession']['create']>>;

interface LoadedModel {
  key: string;
  manifest: DeviceGraphManifest;
  /** by backend and variant: a session belongs to the onnxruntime build that made it */
  sessions: Map<string, Promise<Session>>;
}

let loaded: LoadedModel | undefined;
const cancelled = new Set<string>();
let queue: Promise<unknown> = Promise.resolve();

const post = (reply: DeviceReply): void => self.postMessage(reply);

async function getJson<T>(url: string, token: string | undefined): Promise<T> {
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new ModelsUnavailable(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

async function model(req: DeviceRunRequest): Promise<LoadedModel> {
  const base = `${req.apiBase.replace(/\/$/, '')}/models/${encodeURIComponent(req.modelName)}/graphs`;
  const manifest = await getJson<DeviceGraphManifest>(`${base}/manifest.json`, req.token);
  const key = `${manifest.name}-${manifest.hash}`;
  if (loaded?.key === key) return loaded;
  // One model's sessions at a time: a tablet cannot keep several in memory.
  const previous = loaded;
  loaded = undefined;
  if (previous) for (const s of previous.sessions.values()) await (await s.catch(() => undefined))?.release();
  const sessions = new Map<string, Promise<Session>>();
  const next: LoadedModel = { key, manifest, sessions };
  loaded = next;
  return next;
}

function session(m: LoadedModel, req: DeviceRunRequest, rt: OrtRuntime, variant: string): Promise<Session> {
  const key = `${rt.backend}:${variant}`;
  let s = m.sessions.get(key);
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
      return rt.ort.InferenceSession.create(bytes, {
        executionProviders: [rt.backend],
        graphOptimizationLevel: 'all',
      });
    })();
    m.sessions.set(key, s);
    s.catch(() => m.sessions.delete(key));
  }
  return s;
}

interface Tiling {
  maxTile: number;
  cacheBudgetBytes: number;
}

async function upscale(req: DeviceRunRequest, rt: OrtRuntime, m: LoadedModel, tiling: Tiling) {
  const img = await decode(req.image);
  const inferenceStart = performance.now();
  const result = await runDeviceJob(rt.ort, m.manifest, (v) => session(m, req, rt, v), {
    rgb: img.rgb,
    width: img.width,
    height: img.height,
    ...tiling,
    // the model's denoise strength, not transparency
    alpha: req.alpha ?? 1,
    isCancelled: () => cancelled.has(req.id),
    onProgress: (fraction) => post({ type: 'progress', id: req.id, fraction }),
  });
  const inferenceMs = performance.now() - inferenceStart;
  const transparency = img.alpha && upscaleAlpha(img.alpha, img.width, img.height, m.manifest.geometry.scale);
  return { result, transparency, inferenceMs };
}

async function run(req: DeviceRunRequest): Promise<void> {
  const started = performance.now();
  try {
    if (cancelled.has(req.id)) throw new DeviceCancelled();
    const m = await model(req);
    const memory = (navigator as WorkerNavigator & { deviceMemory?: number }).deviceMemory;
    const tiling = {
      maxTile: req.maxTile ?? tileSideFor(memory),
      cacheBudgetBytes: req.cacheBudgetBytes ?? cacheBudgetFor(memory),
    };
    let rt = await runtimeFor(req.backend);
    let job;
    try {
      job = await upscale(req, rt, m, tiling);
    } catch (error) {
      // A GPU that fails (a lost device, an operator it cannot run): this job and the next ones
      // go to WebAssembly, unless WebGPU was asked for by name.
      const gpuFault = rt.backend === 'webgpu' && !(error instanceof DeviceCancelled || error instanceof ModelsUnavailable);
      if (!gpuFault || req.backend === 'webgpu') throw error;
      webGpuFailed(error);
      rt = await runtimeFor('wasm');
      job = await upscale(req, rt, m, tiling);
    }
    const { result, inferenceMs } = job;
    const png = await encode(result.rgb, result.width, result.height, job.transparency);
    post({
      type: 'done',
      id: req.id,
      png,
      width: result.width,
      height: result.height,
      scale: m.manifest.geometry.scale,
      stats: {
        backend: rt.backend,
        threads: rt.threads,
        tiles: result.tiles,
        tileSide: tiling.maxTile,
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

function onRequest(event: MessageEvent<DeviceRequest>): void {
  const msg = event.data;
  if (msg.type === 'cancel') {
    cancelled.add(msg.id);
    return;
  }
  // One job at a time: memory is bounded by one tile of one job.
  queue = queue.then(() => run(msg));
}

// onnxruntime's threads are workers of its own chunk (runtime.ts imports each build as one), not of
// this file, so every message here is a job or a cancel.
self.onmessage = onRequest;
