// Online means: the browser says so AND the last request reached a server. A stopped server or a
// captive trade-fair Wi-Fi leaves navigator.onLine true, so failed requests count too. While the
// server is unreachable a light probe runs; its first answer flips us back online.
import { useSyncExternalStore } from 'react';

export interface OnlineSnapshot {
  online: boolean;
  browserOnline: boolean;
  serverReachable: boolean;
}

const PROBE_INTERVAL_MS = 5_000;
const listeners = new Set<() => void>();
let browserOnline = typeof navigator === 'undefined' ? true : navigator.onLine;
let serverReachable = true;
let snapshot: OnlineSnapshot = compute();
let probeTimer: ReturnType<typeof setInterval> | null = null;

function compute(): OnlineSnapshot {
  return { online: browserOnline && serverReachable, browserOnline, serverReachable };
}

function changed(): void {
  const next = compute();
  if (next.online === snapshot.online && next.serverReachable === snapshot.serverReachable && next.browserOnline === snapshot.browserOnline) return;
  snapshot = next;
  if (!snapshot.serverReachable || !snapshot.browserOnline) startProbe();
  else stopProbe();
  for (const listener of listeners) listener();
}

/** The query param makes the service worker leave this request to the network (see sw/routes.ts). */
export const PROBE_URL = '/config.json?reachability=1';

async function probe(): Promise<void> {
  try {
    const response = await fetch(`${PROBE_URL}&t=${Date.now()}`, { cache: 'no-store', credentials: 'omit' });
    if (response.ok) reportReachable();
  } catch {
    // still unreachable
  }
}

function startProbe(): void {
  if (probeTimer || typeof window === 'undefined') return;
  probeTimer = setInterval(() => void probe(), PROBE_INTERVAL_MS);
}

function stopProbe(): void {
  if (probeTimer) clearInterval(probeTimer);
  probeTimer = null;
}

export function reportUnreachable(): void {
  serverReachable = false;
  changed();
}

export function reportReachable(): void {
  serverReachable = true;
  changed();
}

export function getOnlineStatus(): OnlineSnapshot {
  return snapshot;
}

export function subscribeOnlineStatus(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Runs `callback` each time the app goes from offline to online. */
export function onReconnect(callback: () => void): () => void {
  let wasOnline = snapshot.online;
  return subscribeOnlineStatus(() => {
    if (snapshot.online && !wasOnline) callback();
    wasOnline = snapshot.online;
  });
}

export function useOnlineStatus(): OnlineSnapshot {
  return useSyncExternalStore(subscribeOnlineStatus, getOnlineStatus, getOnlineStatus);
}

/** Checks the server now (after a reload we do not know yet whether it is there). */
export function checkReachability(): Promise<void> {
  return probe();
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    browserOnline = true;
    changed();
    void probe();
  });
  window.addEventListener('offline', () => {
    browserOnline = false;
    changed();
  });
}
