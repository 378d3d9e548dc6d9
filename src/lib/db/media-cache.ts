// The service worker's media cache ("loom-user-media") seen from outside Workbox: which entries
// were used least recently, how to remove some of them, and how to forget them all. Workbox's
// ExpirationPlugin keeps a last-used time per URL in its own IndexedDB database; we read and trim
// the same records so its bookkeeping stays consistent. Runs in the page and in the worker.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** Workbox's database and store (workbox-expiration/models/CacheTimestampsModel). */
export const EXPIRATION_DB = 'workbox-expiration';
const ENTRIES = 'cache-entries';

interface ExpirationEntry {
  id: string;
  cacheName: string;
  url: string;
  timestamp: number;
}

interface ExpirationSchema extends DBSchema {
  'cache-entries': { key: string; value: ExpirationEntry; indexes: { cacheName: string; timestamp: number } };
}

export interface MediaCacheEntry {
  cacheName: string;
  url: string;
  /** Last time the worker stored or served it (ms since epoch). */
  lastUsed: number;
}

/** Opens Workbox's metadata database only if it exists: never creates it with a wrong shape. */
async function openExpirationDb(): Promise<IDBPDatabase<ExpirationSchema> | null> {
  try {
    return await openDB<ExpirationSchema>(EXPIRATION_DB, undefined, {
      upgrade(_db, oldVersion, _newVersion, tx) {
        // It did not exist: undo the creation, Workbox makes it on first use.
        if (oldVersion === 0) {
          tx.done.catch(() => undefined);
          tx.abort();
        }
      },
    });
  } catch {
    return null;
  }
}

function isUserCache(cacheName: string, prefix: string): boolean {
  return cacheName.startsWith(prefix);
}

/** The entries of every cache whose name starts with `prefix`, least recently used first. */
export async function mediaEntriesOldestFirst(prefix: string): Promise<MediaCacheEntry[]> {
  const db = await openExpirationDb();
  if (!db) return [];
  try {
    const all = await db.getAllFromIndex(ENTRIES, 'timestamp');
    return all
      .filter((e) => isUserCache(e.cacheName, prefix))
      .map((e) => ({ cacheName: e.cacheName, url: e.url, lastUsed: e.timestamp }));
  } finally {
    db.close();
  }
}

/** Bytes of a cached response (its body, read once). 0 when it is not in the cache any more. */
export async function cachedSize(storage: CacheStorage, entry: MediaCacheEntry): Promise<number> {
  const cache = await storage.open(entry.cacheName);
  const response = await cache.match(entry.url);
  if (!response) return 0;
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > 0) return length;
  return (await response.blob()).size;
}

/** Removes entries from their caches and from Workbox's metadata. */
export async function deleteMediaEntries(
  storage: CacheStorage,
  entries: readonly MediaCacheEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  for (const entry of entries) await (await storage.open(entry.cacheName)).delete(entry.url);
  const db = await openExpirationDb();
  if (!db) return;
  try {
    const tx = db.transaction(ENTRIES, 'readwrite');
    await Promise.all(entries.map((e) => tx.store.delete(`${e.cacheName}|${e.url}`)));
    await tx.done;
  } finally {
    db.close();
  }
}

/** Logout: the user caches and every last-used record of them (the URLs name the user's media). */
export async function forgetUserCaches(storage: CacheStorage | undefined, prefix: string): Promise<void> {
  if (storage) {
    const names = await storage.keys();
    await Promise.all(names.filter((n) => isUserCache(n, prefix)).map((n) => storage.delete(n)));
  }
  const db = await openExpirationDb();
  if (!db) return;
  try {
    const tx = db.transaction(ENTRIES, 'readwrite');
    let cursor = await tx.store.openCursor();
    while (cursor) {
      if (isUserCache(cursor.value.cacheName, prefix)) await cursor.delete();
      cursor = await cursor.continue();
    }
    await tx.done;
  } finally {
    db.close();
  }
}
