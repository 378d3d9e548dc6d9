// What goes first when storage is full, least recently used first: the device copies of finished
// upscale results (the oldest first; online they can be downloaded again), then the service
// worker's cached media. Never a source image, never anything of an item still waiting or
// running, never the outbox or the query cache (a queued edit cannot be fetched again).
import { USER_CACHE_PREFIX } from '../offline/cache-names';
import { cachedSize, deleteMediaEntries, mediaEntriesOldestFirst, type MediaCacheEntry } from './media-cache';
import { openLoomDb } from './open-db';

/** At least this much is freed per quota error, so the next writes do not hit the wall at once. */
export const MIN_EVICTION_BYTES = 5 * 1024 * 1024;

export interface EvictionReport {
  /** Upscale results whose device copy was removed. */
  results: number;
  /** Cached media files (thumbnails, images, posters) removed. */
  media: number;
  freedBytes: number;
}

interface ResultCandidate {
  id: string;
  size: number;
  /** When the result was finished; 0 for a copy whose queue item is gone. */
  finishedAt: number;
}

async function resultCandidates(): Promise<ResultCandidate[]> {
  const db = await openLoomDb();
  const tx = db.transaction(['upscale-results', 'upscale-queue'], 'readonly');
  const [results, items] = await Promise.all([
    tx.objectStore('upscale-results').getAll(),
    tx.objectStore('upscale-queue').getAll(),
  ]);
  await tx.done;
  const byId = new Map(items.map((item) => [item.id, item]));
  const candidates: ResultCandidate[] = [];
  for (const result of results) {
    const item = byId.get(result.id);
    if (item && item.status !== 'completed') continue;
    const finishedAt = item ? (item.result?.completedAt ?? item.updatedAt) : 0;
    // Some IndexedDB implementations hand back a Blob without its size: the item recorded it.
    const size = Number.isFinite(result.blob.size) ? result.blob.size : (item?.result?.outputSize ?? 0);
    candidates.push({ id: result.id, size, finishedAt });
  }
  return candidates.sort((a, b) => a.finishedAt - b.finishedAt);
}

async function evictResults(bytes: number, report: EvictionReport): Promise<void> {
  const chosen: ResultCandidate[] = [];
  let planned = 0;
  for (const candidate of await resultCandidates()) {
    if (planned >= bytes) break;
    chosen.push(candidate);
    planned += candidate.size;
  }
  if (chosen.length === 0) return;
  const db = await openLoomDb();
  const tx = db.transaction(['upscale-results', 'upscale-queue'], 'readwrite');
  for (const { id, size } of chosen) {
    // The item may have been started again or removed since we looked: check in this transaction.
    const item = await tx.objectStore('upscale-queue').get(id);
    if (item && item.status !== 'completed') continue;
    if (!(await tx.objectStore('upscale-results').getKey(id))) continue;
    await tx.objectStore('upscale-results').delete(id);
    report.results += 1;
    report.freedBytes += size;
  }
  await tx.done;
}

async function evictMedia(
  bytes: number,
  report: EvictionReport,
  storage: CacheStorage | undefined,
): Promise<void> {
  if (!storage) return;
  const chosen: MediaCacheEntry[] = [];
  let freed = 0;
  for (const entry of await mediaEntriesOldestFirst(USER_CACHE_PREFIX)) {
    if (report.freedBytes + freed >= bytes) break;
    const size = await cachedSize(storage, entry);
    chosen.push(entry);
    freed += size;
  }
  await deleteMediaEntries(storage, chosen);
  report.media += chosen.length;
  report.freedBytes += freed;
}

/** Frees at least `bytes` if that much can go, least recently used first. */
export async function evictLeastRecentlyUsed(
  bytes: number,
  storage: CacheStorage | undefined = typeof caches === 'undefined' ? undefined : caches,
): Promise<EvictionReport> {
  const report: EvictionReport = { results: 0, media: 0, freedBytes: 0 };
  await evictResults(bytes, report);
  if (report.freedBytes < bytes) await evictMedia(bytes, report, storage);
  return report;
}

/** The service worker's own quota errors: only its media cache, oldest first. */
export async function evictLeastRecentlyUsedMedia(
  bytes: number,
  storage: CacheStorage,
): Promise<EvictionReport> {
  const report: EvictionReport = { results: 0, media: 0, freedBytes: 0 };
  await evictMedia(bytes, report, storage);
  return report;
}
