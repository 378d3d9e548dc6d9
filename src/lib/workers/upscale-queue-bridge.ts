// Main-thread side of the upscale queue worker. The worker starts on first use (or at sign-in
// when a persisted batch is waiting) and lives as long as the page, so a batch keeps running while
// the user moves between pages. It always holds the current token, base URL and user: a refreshed
// token or another account reaches it at once. A worker that dies is started again and configured,
// which resumes the batch from IndexedDB; calls that were waiting on the dead one reject.
import * as Comlink from 'comlink';
import { loadRuntimeConfig, tusEndpoint } from '../api/runtime-config';
import { beginWork } from '../offline/busy-work';
import { onReconnect } from '../offline/online-status';
import { currentUserKey } from '../offline/user-key';
import { registerLogoutCleanup } from '../session/logout-cleanup';
import { onSessionExpired } from '../session/session-events';
import { getSession, subscribeSession } from '../session/session-store';
import type { QueueAuth, QueueSnapshot, UpscaleQueueApi } from '../../workers/upscale-queue/protocol';
import { QUEUE, openUpscaleDb } from '../../workers/upscale-queue/upscale-db';
import { createWorkerHandle } from './worker-handle';

const EMPTY: QueueSnapshot = { items: [], paused: null, inFlight: 0 };

/** A worker that keeps failing at once is left stopped rather than restarted in a loop. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;
let restarts: number[] = [];

const handle = createWorkerHandle<UpscaleQueueApi>(
  () =>
    new Worker(new URL('../../workers/upscale-queue.worker.ts', import.meta.url), {
      type: 'module',
      name: 'upscale-queue',
    }),
  null,
  { onCrash: restartAfterCrash },
);

function restartAfterCrash(): void {
  starting = null;
  lastAuth = '';
  const now = Date.now();
  restarts = restarts.filter((t) => now - t < RESTART_WINDOW_MS);
  if (restarts.length >= MAX_RESTARTS) return; // the next user action tries again
  restarts.push(now);
  void upscaleQueue().catch(() => {});
}

let snapshot: QueueSnapshot = EMPTY;
const listeners = new Set<() => void>();
let starting: Promise<Comlink.Remote<UpscaleQueueApi>> | null = null;
let lastAuth = '';

async function currentAuth(): Promise<QueueAuth | null> {
  const session = getSession();
  const owner = currentUserKey(session);
  if (!owner) return null;
  const config = await loadRuntimeConfig();
  const tusUrl = tusEndpoint(config, location.href);
  return {
    token: session.token,
    baseUrl: new URL(config.api.upscale, location.href).href,
    owner,
    ...(tusUrl ? { tusUrl } : {}),
  };
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

let wired = false;

/** Session and connectivity reach whichever worker is current; wired once, not per restart. */
function wireOnce(): void {
  if (wired) return;
  wired = true;
  const withQueue = (use: (queue: Comlink.Remote<UpscaleQueueApi>) => Promise<void>) =>
    void starting?.then(use).catch(() => {});
  subscribeSession(() => {
    if (!currentUserKey(getSession())) return;
    withQueue(pushAuth);
  });
  const online = () => withQueue((queue) => queue.setOnline(navigator.onLine));
  window.addEventListener('online', online);
  window.addEventListener('offline', online);
  onReconnect(() => withQueue((queue) => queue.setOnline(true)));
}

/** The running queue; starts the worker and hands it the session on first call. */
export function upscaleQueue(): Promise<Comlink.Remote<UpscaleQueueApi>> {
  if (starting) return starting;
  const start: Promise<Comlink.Remote<UpscaleQueueApi>> = (async () => {
    const queue = handle.get();
    await queue.subscribe(Comlink.proxy(setSnapshot));
    await pushAuth(queue);
    wireOnce();
    return queue;
  })().catch((error: unknown) => {
    // A restart after a crash may already have replaced this attempt.
    if (starting === start) starting = null;
    throw error;
  });
  starting = start;
  return start;
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

async function stopWorker(wipe: boolean): Promise<void> {
  if (wipe && starting) {
    const queue = await starting.catch(() => null);
    await queue?.wipe();
  }
  handle.stop();
  starting = null;
  lastAuth = '';
  setSnapshot(EMPTY);
}

// Logout on a shared tablet: stop the batch at once. The records themselves go with the
// offline core's wipe of this user's IndexedDB data.
registerLogoutCleanup(() => stopWorker(true));
// An expired session stops sending (every request would be refused) but keeps the batch: the
// same designer signing in again resumes it; another account's sign-in wipes it.
onSessionExpired(() => void stopWorker(false));
