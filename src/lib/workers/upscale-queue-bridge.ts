// Main-thread side of the upscale queue worker. The worker starts on first use (or at sign-in
// when a persisted batch is waiting) and lives as long as the page, so a batch keeps running while
// the user moves between pages. It always holds the current token, base URL and user: a refreshed
// token or another account reaches it at once.
import * as Comlink from 'comlink';
import { loadRuntimeConfig } from '../api/runtime-config';
import { beginWork } from '../offline/busy-work';
import { onReconnect } from '../offline/online-status';
import { currentUserKey } from '../offline/user-key';
import { registerLogoutCleanup } from '../session/logout-cleanup';
import { getSession, subscribeSession } from '../session/session-store';
import type { QueueAuth, QueueSnapshot, UpscaleQueueApi } from '../../workers/upscale-queue/protocol';
import { QUEUE, openUpscaleDb } from '../../workers/upscale-queue/upscale-db';
import { createWorkerHandle } from './worker-handle';

const EMPTY: QueueSnapshot = { items: [], paused: null, inFlight: 0 };

const handle = createWorkerHandle<UpscaleQueueApi>(
  () => new Worker(new URL('../../workers/upscale-queue.worker.ts', import.meta.url), { type: 'module', name: 'upscale-queue' }),
  null,
);

let snapshot: QueueSnapshot = EMPTY;
const listeners = new Set<() => void>();
let starting: Promise<Comlink.Remote<UpscaleQueueApi>> | null = null;
let lastAuth = '';

async function currentAuth(): Promise<QueueAuth | null> {
  const session = getSession();
  const owner = currentUserKey(session);
  if (!owner) return null;
  const config = await loadRuntimeConfig();
  return { token: session.token, baseUrl: new URL(config.api.upscale, location.href).href, owner };
}

async function pushAuth(queue: Comlink.Remote<UpscaleQueueApi>): Promise<void> {
  const auth = await currentAuth();
  if (!auth) return;
  const key = JSON.stringify(auth);
  if (key === lastAuth) return;
  lastAuth = key;
  await queue.configure(auth);
}

let endWork: (() => void) | null = null;

function setSnapshot(next: QueueSnapshot): void {
  snapshot = next;
  // While images are waiting or uploading, an app update waits instead of reloading over them.
  const busy = next.items.some((i) => i.status === 'waiting' || i.status === 'processing');
  if (busy && !endWork) endWork = beginWork('work.upscaling');
  if (!busy && endWork) {
    endWork();
    endWork = null;
  }
  for (const l of listeners) l();
}

/** The running queue; starts the worker and hands it the session on first call. */
export function upscaleQueue(): Promise<Comlink.Remote<UpscaleQueueApi>> {
  starting ??= (async () => {
    const queue = handle.get();
    await queue.subscribe(Comlink.proxy(setSnapshot));
    await pushAuth(queue);
    subscribeSession(() => {
      if (!currentUserKey(getSession())) return;
      void pushAuth(queue);
    });
    const online = () => void queue.setOnline(navigator.onLine);
    window.addEventListener('online', online);
    window.addEventListener('offline', online);
    onReconnect(() => void queue.setOnline(true));
    return queue;
  })().catch((error: unknown) => {
    starting = null;
    throw error;
  });
  return starting;
}

/** After a reload: start the worker only if this user left unfinished work behind. */
export async function resumeUpscaleQueueIfNeeded(): Promise<void> {
  if (starting) return;
  const owner = currentUserKey(getSession());
  if (!owner) return;
  try {
    const db = await openUpscaleDb();
    const items = await db.getAllFromIndex(QUEUE, 'byUser', owner);
    if (items.length > 0) await upscaleQueue();
  } catch {
    // No IndexedDB (private mode): nothing was persisted, nothing to resume.
  }
}

export function getQueueSnapshot(): QueueSnapshot {
  return snapshot;
}

export function subscribeQueue(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Logout on a shared tablet: stop the batch at once. The records themselves go with the
// offline core's wipe of this user's IndexedDB data.
registerLogoutCleanup(async () => {
  if (starting) {
    const queue = await starting.catch(() => null);
    await queue?.wipe();
  }
  handle.stop();
  starting = null;
  lastAuth = '';
  setSnapshot(EMPTY);
});
