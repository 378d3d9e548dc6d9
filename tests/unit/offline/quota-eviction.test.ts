// Quota recovery against real IndexedDB semantics (fake-indexeddb): a QuotaExceededError frees
// space least recently used first — finished upscale results, oldest first, then the service
// worker's cached media by Workbox's last-used times — and never touches waiting or running work.
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPIRATION_DB, forgetUserCaches } from '../../../src/lib/db/media-cache';
import { evictLeastRecentlyUsed } from '../../../src/lib/db/lru-eviction';
import { closeLoomDb, openLoomDb } from '../../../src/lib/db/open-db';
import { onMediaEvicted, withQuotaRecovery, type EvictionReport } from '../../../src/lib/db/quota';
import { wipeAllUserData } from '../../../src/lib/db/wipe-user';
import type { QueueItem, QueueItemStatus } from '../../../src/workers/upscale-queue/protocol';

const MB = 1024 * 1024;
const ORIGIN = 'http://localhost';

/** CacheStorage for jsdom (it has none): named caches of URL → Response, like the browser's. */
function memoryCacheStorage(): CacheStorage {
  const caches = new Map<string, Map<string, Response>>();
  const open = async (name: string) => {
    let entries = caches.get(name);
    if (!entries) caches.set(name, (entries = new Map()));
    const store = entries;
    return {
      async match(url: string) {
        return store.get(new URL(url, ORIGIN).href)?.clone();
      },
      async put(url: string, response: Response) {
        store.set(new URL(url, ORIGIN).href, response);
      },
      async delete(url: string) {
        return store.delete(new URL(url, ORIGIN).href);
      },
      async keys() {
        return [...store.keys()].map((u) => new Request(u));
      },
    } as unknown as Cache;
  };
  return {
    open,
    has: async (name: string) => caches.has(name),
    delete: async (name: string) => caches.delete(name),
    keys: async () => [...caches.keys()],
    match: async () => undefined,
  } as unknown as CacheStorage;
}

/** Workbox's metadata database as workbox-expiration creates it. */
async function expirationDb() {
  return openDB(EXPIRATION_DB, 1, {
    upgrade(db) {
      const store = db.createObjectStore('cache-entries', { keyPath: 'id' });
      store.createIndex('cacheName', 'cacheName');
      store.createIndex('timestamp', 'timestamp');
    },
  });
}

async function cacheMedia(
  storage: CacheStorage,
  cacheName: string,
  path: string,
  bytes: number,
  lastUsed: number,
) {
  const url = new URL(path, ORIGIN).href;
  await (
    await storage.open(cacheName)
  ).put(url, new Response(new Uint8Array(bytes), { headers: { 'content-type': 'image/webp' } }));
  const db = await expirationDb();
  await db.put('cache-entries', { id: `${cacheName}|${url}`, cacheName, url, timestamp: lastUsed });
  db.close();
}

async function expirationUrls(): Promise<string[]> {
  const db = await expirationDb();
  const all = (await db.getAll('cache-entries')) as { url: string }[];
  db.close();
  return all.map((e) => e.url).sort();
}

function item(id: string, status: QueueItemStatus, completedAt: number, outputSize?: number): QueueItem {
  return {
    id,
    userKey: 'id:1',
    fileId: `file-${id}`,
    fileName: `${id}.png`,
    fileType: 'image/png',
    fileSize: 10,
    params: { modelName: 'm', scale: 2, tileMode: 0, cacheMode: 0, alpha: 1 },
    status,
    progress: 0,
    idempotencyKey: id,
    bytesSent: false,
    attempts: 0,
    seq: 0,
    createdAt: 0,
    updatedAt: completedAt,
    result:
      status === 'completed'
        ? { url: `/r/${id}`, filename: id, message: '', durationMs: 1, completedAt, outputSize }
        : undefined,
  };
}

async function seedUpscale(
  entries: { id: string; status: QueueItemStatus; completedAt: number; resultBytes?: number }[],
) {
  const db = await openLoomDb();
  for (const e of entries) {
    await db.put('upscale-queue', item(e.id, e.status, e.completedAt, e.resultBytes));
    await db.put('upscale-files', {
      id: `file-${e.id}`,
      userKey: 'id:1',
      name: e.id,
      type: 'image/png',
      size: 3 * MB,
      blob: new Blob([new Uint8Array(3 * MB)]),
      addedAt: 0,
    });
    if (e.resultBytes)
      await db.put('upscale-results', {
        id: e.id,
        userKey: 'id:1',
        blob: new Blob([new Uint8Array(e.resultBytes)]),
        type: 'image/png',
      });
  }
}

async function remaining() {
  const db = await openLoomDb();
  return {
    results: (await db.getAllKeys('upscale-results')).sort(),
    files: (await db.getAllKeys('upscale-files')).sort(),
  };
}

function quotaError(): DOMException {
  return new DOMException('The quota has been exceeded.', 'QuotaExceededError');
}

describe('quota recovery', () => {
  afterEach(async () => {
    await wipeAllUserData();
    await closeLoomDb();
    await forgetUserCaches(undefined, '');
  });

  it('removes the oldest finished results first and keeps sources and unfinished work', async () => {
    await seedUpscale([
      { id: 'new', status: 'completed', completedAt: 300, resultBytes: 4 * MB },
      { id: 'old', status: 'completed', completedAt: 100, resultBytes: 4 * MB },
      { id: 'mid', status: 'completed', completedAt: 200, resultBytes: 4 * MB },
      // A result copy of an item that was sent again: it is running now, its data stays.
      { id: 'busy', status: 'processing', completedAt: 50, resultBytes: 4 * MB },
      { id: 'waiting', status: 'waiting', completedAt: 0 },
    ]);
    const report = await evictLeastRecentlyUsed(6 * MB, memoryCacheStorage());
    expect(report).toEqual({ results: 2, media: 0, freedBytes: 8 * MB });
    const left = await remaining();
    expect(left.results).toEqual(['busy', 'new']);
    expect(left.files).toEqual(['file-busy', 'file-mid', 'file-new', 'file-old', 'file-waiting']);
  });

  it('goes on with the media cache by last use when results are not enough, and keeps Workbox consistent', async () => {
    const storage = memoryCacheStorage();
    await seedUpscale([{ id: 'only', status: 'completed', completedAt: 1, resultBytes: 1 * MB }]);
    await cacheMedia(storage, 'loom-user-media', '/files/thumb/recent.webp', 2 * MB, 3000);
    await cacheMedia(storage, 'loom-user-media', '/files/thumb/stale.webp', 2 * MB, 1000);
    await cacheMedia(storage, 'loom-user-media', '/files/thumb/older.webp', 2 * MB, 2000);
    // Not a user cache: locale files are never evicted for media.
    await cacheMedia(storage, 'loom-locales', '/locales/en-US.json', 2 * MB, 10);

    const report = await evictLeastRecentlyUsed(4 * MB, storage);
    expect(report).toEqual({ results: 1, media: 2, freedBytes: 5 * MB });
    const media = await storage.open('loom-user-media');
    expect(await media.match(`${ORIGIN}/files/thumb/stale.webp`)).toBeUndefined();
    expect(await media.match(`${ORIGIN}/files/thumb/older.webp`)).toBeUndefined();
    expect(await media.match(`${ORIGIN}/files/thumb/recent.webp`)).toBeDefined();
    expect(await expirationUrls()).toEqual([
      `${ORIGIN}/files/thumb/recent.webp`,
      `${ORIGIN}/locales/en-US.json`,
    ]);
  });

  it('on a QuotaExceededError evicts, tells the UI what went, and the write succeeds on retry', async () => {
    await seedUpscale([{ id: 'done', status: 'completed', completedAt: 1, resultBytes: 2 * MB }]);
    const reports: EvictionReport[] = [];
    const stop = onMediaEvicted((r) => reports.push(r));
    let calls = 0;
    const value = await withQuotaRecovery(async () => {
      calls += 1;
      if (calls === 1) throw quotaError();
      return 'written';
    }, MB);
    stop();
    expect(value).toBe('written');
    expect(calls).toBe(2);
    expect(reports).toEqual([{ results: 1, media: 0, freedBytes: 2 * MB }]);
    expect((await remaining()).results).toEqual([]);
  });

  it('says storage is full and rethrows when nothing can be evicted; other errors pass through untouched', async () => {
    await seedUpscale([{ id: 'waiting', status: 'waiting', completedAt: 0 }]);
    const reports: EvictionReport[] = [];
    const stop = onMediaEvicted((r) => reports.push(r));
    await expect(withQuotaRecovery(() => Promise.reject(quotaError()))).rejects.toMatchObject({
      name: 'QuotaExceededError',
    });
    await expect(withQuotaRecovery(() => Promise.reject(new TypeError('bad')))).rejects.toThrow('bad');
    stop();
    expect(reports).toEqual([{ results: 0, media: 0, freedBytes: 0 }]);
    expect((await remaining()).files).toEqual(['file-waiting']);
  });

  it('logout forgets the user caches and their last-used records, but not other caches', async () => {
    const storage = memoryCacheStorage();
    // Without Workbox's database, nothing is created in its place.
    await new Promise((resolve) => (indexedDB.deleteDatabase(EXPIRATION_DB).onsuccess = resolve));
    await forgetUserCaches(storage, 'loom-user-');
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(EXPIRATION_DB);
    await cacheMedia(storage, 'loom-user-media', '/files/thumb/a.webp', 10, 1);
    await cacheMedia(storage, 'loom-locales', '/locales/en-US.json', 10, 1);
    await forgetUserCaches(storage, 'loom-user-');
    expect(await storage.keys()).toEqual(['loom-locales']);
    expect(await expirationUrls()).toEqual([`${ORIGIN}/locales/en-US.json`]);
  });

  it('hears what a worker evicted: its report comes over the storage channel', async () => {
    const heard: EvictionReport[] = [];
    const stop = onMediaEvicted((report) => heard.push(report));
    try {
      const worker = new BroadcastChannel('loom-storage-evictions');
      worker.postMessage({ results: 2, media: 1, freedBytes: 3 * MB });
      worker.close();
      await expect.poll(() => heard).toEqual([{ results: 2, media: 1, freedBytes: 3 * MB }]);
    } finally {
      stop();
    }
  });
});
