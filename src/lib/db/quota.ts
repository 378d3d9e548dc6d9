// Storage quota: estimate, persistence, and recovery from a full disk. A quota error evicts the
// least recently used device copies of upscale results and cached media first (both can be
// downloaded again; queued edits cannot) and tells the user what was removed.
import type { EvictionReport } from './lru-eviction';

export type { EvictionReport };

export interface StorageFigures {
  usage: number;
  quota: number;
  persisted: boolean;
}

type EvictionListener = (report: EvictionReport) => void;
const evictionListeners = new Set<EvictionListener>();

// Workers (the upscale queue) evict too, but have no UI: their reports reach the pages over a
// channel, which the first page-side subscriber opens.
const EVICTION_CHANNEL = 'loom-storage-evictions';
let pageChannel: BroadcastChannel | null = null;

/** The UI subscribes to say what was removed (or that nothing could be). */
export function onMediaEvicted(listener: EvictionListener): () => void {
  evictionListeners.add(listener);
  if (!pageChannel && typeof BroadcastChannel !== 'undefined') {
    pageChannel = new BroadcastChannel(EVICTION_CHANNEL);
    pageChannel.onmessage = (event: MessageEvent<EvictionReport>) => reportEviction(event.data);
  }
  return () => evictionListeners.delete(listener);
}

function announceEviction(report: EvictionReport): void {
  if ('document' in globalThis || typeof BroadcastChannel === 'undefined') return reportEviction(report);
  const channel = new BroadcastChannel(EVICTION_CHANNEL);
  channel.postMessage(report);
  channel.close();
}

/** Also used for the service worker's own evictions, reported to the page by message. */
export function reportEviction(report: EvictionReport): void {
  for (const listener of evictionListeners) listener(report);
}

export function isQuotaError(error: unknown): boolean {
  if (!(error instanceof Error || (typeof DOMException !== 'undefined' && error instanceof DOMException)))
    return false;
  const e = error as { name?: string; code?: number; inner?: unknown };
  // Firefox names it NS_ERROR_DOM_QUOTA_REACHED; legacy Safari uses code 22.
  return e.name === 'QuotaExceededError' || e.name === 'NS_ERROR_DOM_QUOTA_REACHED' || e.code === 22;
}

/** Runs a write; on a quota error evicts LRU media (about `neededBytes`, at least 5 MB) and retries once. */
export async function withQuotaRecovery<T>(write: () => Promise<T>, neededBytes = 0): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    // Loaded only when a disk is full: the start-up code that listens for evictions does without it.
    const { MIN_EVICTION_BYTES, evictLeastRecentlyUsed } = await import('./lru-eviction');
    const report = await evictLeastRecentlyUsed(Math.max(neededBytes, MIN_EVICTION_BYTES));
    announceEviction(report);
    if (report.results + report.media === 0) throw error;
    return write();
  }
}

export async function storageFigures(): Promise<StorageFigures | null> {
  if (!navigator.storage?.estimate) return null;
  const [estimate, persisted] = await Promise.all([
    navigator.storage.estimate(),
    navigator.storage.persisted?.() ?? Promise.resolve(false),
  ]);
  return { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted };
}

/** Must be called from a user gesture (a click), or browsers deny it silently. */
export async function requestPersistentStorage(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  return navigator.storage.persist();
}
