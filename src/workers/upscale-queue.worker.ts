// The batch upscale queue's thread. It outlives page navigation (the bridge keeps it), reports
// snapshots at most every 100 ms so a 40-image batch never floods the main thread, and exposes
// the queue over comlink.
import * as Comlink from 'comlink';
import { cancelUpscaleJob } from './upscale-queue/cancel-request';
import { QueueEngine } from './upscale-queue/queue-engine';
import { createIdbQueueStore } from './upscale-queue/idb-queue-store';
import type { QueueAuth, QueueSnapshot, UpscaleQueueApi } from './upscale-queue/protocol';
import { joinUrl, xhrSender } from './upscale-queue/xhr-sender';
import { createLocalUpscaler } from './upscale-local/client';
import { runTusAttempt } from '../lib/upload/tus-upload';

const SNAPSHOT_INTERVAL_MS = 100;
/** Set by the upscale service on GET /models (server/modules/upscale/upscale-routes.ts). */
const RESEND_SAFE_HEADER = 'Upscale-Idempotency';
const listeners = new Set<(s: QueueSnapshot) => void>();
let pending: QueueSnapshot | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

function publish(snapshot: QueueSnapshot): void {
  pending = snapshot;
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    const s = pending;
    pending = null;
    if (s) for (const l of listeners) l(s);
  }, SNAPSHOT_INTERVAL_MS);
}

function authHeaders(auth: QueueAuth): HeadersInit {
  return auth.token ? { Authorization: `Bearer ${auth.token}` } : {};
}

const engine = new QueueEngine({
  store: createIdbQueueStore(),
  send: xhrSender,
  // Resumable uploads where config.json names a tus endpoint: the page stays free while they run.
  upload: runTusAttempt,
  // On-device upscaling (WebAssembly) while the service cannot be reached, or when chosen.
  local: createLocalUpscaler(),
  async probe(auth) {
    const res = await fetch(joinUrl(auth.baseUrl, '/models'), {
      headers: authHeaders(auth),
      cache: 'no-store',
    });
    // The server states that it replays a resend with the same Idempotency-Key; without that a
    // request cut short waits for the user instead of risking a second run.
    return {
      reachable: res.status < 500,
      resendSafe: res.ok && res.headers.get(RESEND_SAFE_HEADER) === 'upscale-single',
    };
  },
  async cancelOnServer(key, auth) {
    await cancelUpscaleJob(key, auth);
  },
  async fetchResult(url, auth) {
    const res = await fetch(url, { headers: authHeaders(auth) });
    if (!res.ok) throw new Error(`result ${res.status}`);
    const blob = await res.blob();
    try {
      const bitmap = await createImageBitmap(blob);
      const size = { width: bitmap.width, height: bitmap.height };
      bitmap.close();
      return { blob, ...size };
    } catch {
      return { blob };
    }
  },
  onSnapshot: publish,
});

// Workers see the browser's connectivity events too.
self.addEventListener('online', () => engine.setOnline(true));
self.addEventListener('offline', () => engine.setOnline(false));

const api: UpscaleQueueApi = {
  configure: (auth) => engine.configure(auth),
  enqueue: (entries, params) => engine.enqueue(entries, params),
  cancel: (id) => engine.cancel(id),
  cancelAll: () => engine.cancelAll(),
  retry: (id) => engine.retry(id),
  retryAllFailed: () => engine.retryAllFailed(),
  remove: (id) => engine.remove(id),
  clearFinished: () => engine.clearFinished(),
  setOnline: async (online) => engine.setOnline(online),
  snapshot: async () => engine.snapshot(),
  subscribe: async (listener) => {
    listeners.add(listener);
    listener(engine.snapshot());
  },
  wipe: () => engine.wipe(),
};

Comlink.expose(api);
