// Storage quota: estimate, persistence, and recovery from a full disk. A quota error evicts the
// least-recently-used media first (it can be downloaded again; queued edits cannot) and tells
// the user what was removed.
import { evictLeastRecentlyUsedMedia } from './lru-eviction';

export interface StorageFigures {
  usage: number;
  quota: number;
  persisted: boolean;
}

type EvictionListener = (info: { evictedCount: number; freedBytes: number }) => void;
const evictionListeners = new Set<EvictionListener>();

/** The UI subscribes to say "storage was full: N cached images were removed". */
export function onMediaEvicted(listener: EvictionListener): () => void {
  evictionListeners.add(listener);
  return () => evictionListeners.delete(listener);
}

export function isQuotaError(error: unknown): boolean {
  if (!(error instanceof Error || (typeof DOMException !== 'undefined' && error instanceof DOMException))) return false;
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
    const freed = await evictLeastRecentlyUsedMedia(Math.max(neededBytes, 5 * 1024 * 1024));
    for (const listener of evictionListeners) listener(freed);
    if (freed.evictedCount === 0) throw error;
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
