// Registers the service worker (workbox-window) and runs the update flow (update-flow.ts). A
// periodic check finds updates during long trade-fair days. The worker also reports what it
// evicted after a quota error, for the storage notice.
import { useSyncExternalStore } from 'react';
import type { Workbox } from 'workbox-window';
import { MEDIA_EVICTED_MESSAGE } from './cache-names';
import { reportEviction, type EvictionReport } from '../db/quota';
import { createUpdateFlow, type UpdateFlow, type UpdateState } from './update-flow';

export type { UpdateState };

export const UPDATE_CHECK_INTERVAL_MS = 30 * 60 * 1000;

const IDLE: UpdateState = { available: false, applying: false, registered: false };
const listeners = new Set<() => void>();
let flow: UpdateFlow | null = null;
let started = false;

/** Same-origin resources the page loaded before the worker controlled it (locale chunk, media). */
function loadedResources(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((url) => url.startsWith(location.origin));
}

export function registerServiceWorker(): void {
  if (started || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  started = true;
  // After the page's load event, and workbox-window as its own chunk: the first screen's scripts
  // (the sign-in route's JS budget, scripts/sign-in-budget.ts) do not carry it, and the worker's
  // precache downloads do not compete with them.
  const start = () =>
    void import('workbox-window').then((module) => register(new module.Workbox('/sw.js', { scope: '/' })));
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

function register(wb: Workbox): void {
  flow = createUpdateFlow(wb, navigator.serviceWorker, () => window.location.reload());
  flow.subscribe(() => listeners.forEach((l) => l()));
  listeners.forEach((l) => l());
  wb.addEventListener('activated', (event) => {
    if (!event.isUpdate)
      void wb.messageSW({ type: 'CACHE_URLS', payload: { urlsToCache: loadedResources() } });
  });
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: string; report?: EvictionReport } | null;
    if (data?.type === MEDIA_EVICTED_MESSAGE && data.report) reportEviction(data.report);
  });
  const registered = flow;
  void wb.register().then((registration) => {
    registered.markRegistered();
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
  await flow?.apply();
}

export function getUpdateState(): UpdateState {
  return flow?.getState() ?? IDLE;
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
