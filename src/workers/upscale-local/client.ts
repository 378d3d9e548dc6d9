// The queue worker's side of on-device upscaling: starts upscale-local.worker.ts on first use (its
// onnxruntime and graphs are loaded only then) and turns its messages into the queue's outcomes.
import type { LocalOutcome, LocalUpscaler } from '../upscale-queue/send-types';
import type { DeviceReply, DeviceRunRequest } from './protocol';
import { randomUuid } from '../../lib/random-uuid';

interface Pending {
  resolve(outcome: LocalOutcome): void;
  onProgress(percent: number): void;
}

export function createLocalUpscaler(
  spawn: () => Worker = () =>
    new Worker(new URL('../upscale-local.worker.ts', import.meta.url), { type: 'module', name: 'upscale-local' }),
): LocalUpscaler {
  let worker: Worker | null = null;
  const pending = new Map<string, Pending>();
  const failAll = (message: string): void => {
    for (const p of pending.values()) p.resolve({ kind: 'error', code: 'engine_error', message });
    pending.clear();
    worker?.terminate();
    worker = null;
  };
  const ensure = (): Worker => {
    if (worker) return worker;
    const w = spawn();
    w.onmessage = (event: MessageEvent<DeviceReply>) => {
      const msg = event.data;
      const p = pending.get(msg.id);
      if (!p) return;
      if (msg.type === 'progress') {
        p.onProgress(msg.fraction * 100);
        return;
      }
      pending.delete(msg.id);
      if (msg.type === 'done') p.resolve({ kind: 'ok', blob: msg.png, width: msg.width, height: msg.height });
      else if (msg.code === 'cancelled') p.resolve({ kind: 'aborted' });
      else p.resolve({ kind: 'error', code: msg.code, message: msg.message });
    };
    // A crash (out of memory on a small tablet): every job it held fails, the next one starts afresh.
    w.onerror = (event) => failAll(event.message || 'on-device upscaling stopped');
    worker = w;
    return w;
  };
  const run: LocalUpscaler['run'] = (request, onProgress, signal) =>
    new Promise<LocalOutcome>((resolve) => {
      if (signal.aborted) return resolve({ kind: 'aborted' });
      const id = randomUuid();
      pending.set(id, { resolve, onProgress });
      const w = ensure();
      signal.addEventListener('abort', () => w.postMessage({ type: 'cancel', id }), { once: true });
      const message: DeviceRunRequest = {
        type: 'run',
        id,
        image: request.blob,
        modelName: request.params.modelName,
        alpha: request.params.alpha,
        apiBase: request.auth.baseUrl,
        ...(request.auth.token ? { token: request.auth.token } : {}),
      };
      w.postMessage(message);
    });
  return {
    async ready(modelName, auth) {
      // Through the service worker: its cached manifest answers offline once the graphs were used.
      const res = await fetch(graphsManifestUrl(auth.baseUrl, modelName), {
        headers: auth.token ? { Authorization: `Bearer ${auth.token}` } : {},
      });
      return res.ok;
    },
    run,
  };
}

export function graphsManifestUrl(apiBase: string, modelName: string): string {
  return `${apiBase.replace(/\/$/, '')}/models/${encodeURIComponent(modelName)}/graphs/manifest.json`;
}
