// Registers the service worker (workbox-window) and runs the update flow: a new version waits
// until the user accepts; running work postpones the switch; we reload only after the user asked
// and the new worker took control. A periodic check finds updates during long trade-fair days.
import { useSyncExternalStore } from 'react';
import { Workbox } from 'workbox-window';
import { runningWork, whenIdle } from './busy-work';

export const UPDATE_CHECK_INTERVAL_MS = 30 * 60 * 1000;

export interface UpdateState {
  /** A new version is installed and waiting. */
  available: boolean;
  /** The user accepted; we wait for running work before switching. */
  applying: boolean;
  registered: boolean;
}

let state: UpdateState = { available: false, applying: false, registered: false };
const listeners = new Set<() => void>();
let workbox: Workbox | null = null;
let reloadRequested = false;

function set(patch: Partial<UpdateState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

/** Same-origin resources the page loaded before the worker controlled it (locale chunk, media). */
function loadedResources(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((url) => url.startsWith(location.origin));
}

export function registerServiceWorker(): void {
  if (workbox || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  workbox = wb;
  wb.addEventListener('waiting', () => set({ available: true }));
  wb.addEventListener('activated', (event) => {
    if (!event.isUpdate) void wb.messageSW({ type: 'CACHE_URLS', payload: { urlsToCache: loadedResources() } });
  });
  wb.addEventListener('controlling', () => {
    // Only the tab whose user clicked reloads; other tabs keep their state and still offer it.
    // Not gated on event.isUpdate: that flag is false in a tab whose first visit installed the
    // worker, and such a tab must still reload into the new version when its user asks.
    if (reloadRequested) window.location.reload();
  });
  void wb.register().then((registration) => {
    set({ registered: true });
    if (!registration) return;
    const check = () => void registration.update().catch(() => undefined);
    setInterval(check, UPDATE_CHECK_INTERVAL_MS);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') check();
    });
  });
}

/** The user accepted the update: switch once no work is running, then reload. */
export async function applyUpdate(): Promise<void> {
  if (!workbox || state.applying) return;
  set({ applying: true });
  if (runningWork().length > 0) await whenIdle();
  reloadRequested = true;
  workbox.messageSkipWaiting();
}

export function getUpdateState(): UpdateState {
  return state;
}

export function useUpdateState(): UpdateState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getUpdateState,
    getUpdateState,
  );
}
