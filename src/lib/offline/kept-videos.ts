// Finished videos kept on this device for offline showing (issue 25): whole files in the user cache
// "loom-user-videos" (deleted at logout with every user cache), keyed by the file's path without its
// signed link's query (a link is re-signed on every list), with a small index in the same cache:
// which video, its size, when it was kept and last played. The page keeps and removes videos within
// the person's budget, least recently played first; the service worker answers the player from
// here, byte ranges included, and notes the play. Runs in the page and in the worker.
import { CACHE_NAMES } from './cache-names';

export const KEPT_VIDEOS_CACHE = CACHE_NAMES.videos;
/** The index lives beside the files, so the one cache deletion at logout takes both. */
const INDEX_KEY = '/__loom/kept-videos.json';

export interface KeptVideo {
  /** The cache key: the file's URL without its query. */
  key: string;
  /** The history item's id. */
  videoId: number;
  bytes: number;
  keptAt: number;
  lastUsed: number;
  /** Chosen by the person (else kept as one of the latest N). */
  chosen: boolean;
}

export class KeepVideoError extends Error {
  constructor(
    readonly reason: 'too-large' | 'download-failed' | 'storage-full',
    readonly bytes = 0,
  ) {
    super(reason);
  }
}

/** The cache key of a video link: same origin and path, no query (expires, sig). */
export function keptVideoKey(url: string, base: string): string {
  const parsed = new URL(url, base);
  return `${parsed.origin}${parsed.pathname}`;
}

function indexUrl(base: string): string {
  return new URL(INDEX_KEY, base).href;
}

export async function readKeptVideos(storage: CacheStorage, base: string): Promise<KeptVideo[]> {
  const cache = await storage.open(KEPT_VIDEOS_CACHE);
  const response = await cache.match(indexUrl(base));
  if (!response) return [];
  try {
    return (await response.json()) as KeptVideo[];
  } catch {
    return [];
  }
}

async function writeIndex(storage: CacheStorage, base: string, list: readonly KeptVideo[]): Promise<void> {
  const cache = await storage.open(KEPT_VIDEOS_CACHE);
  await cache.put(indexUrl(base), new Response(JSON.stringify(list), { headers: { 'content-type': 'application/json' } }));
}

/** Videos to remove, least recently played first, so `incoming` more bytes fit in `budget`. */
export function videosToEvict(list: readonly KeptVideo[], incoming: number, budget: number): KeptVideo[] {
  let used = list.reduce((sum, v) => sum + v.bytes, 0);
  const out: KeptVideo[] = [];
  for (const video of [...list].sort((a, b) => a.lastUsed - b.lastUsed)) {
    if (used + incoming <= budget) break;
    out.push(video);
    used -= video.bytes;
  }
  return out;
}

export interface KeepRequest {
  url: string;
  videoId: number;
  chosen: boolean;
  budgetBytes: number;
  base: string;
  now?: number;
  signal?: AbortSignal;
}

/**
 * Downloads a video whole and keeps it, removing the least recently played ones first when it
 * would not fit in the budget. A video larger than the whole budget is refused. Keeping one that is
 * already here marks it chosen (if asked) and played now.
 */
export async function keepVideo(storage: CacheStorage, req: KeepRequest): Promise<KeptVideo> {
  const key = keptVideoKey(req.url, req.base);
  const now = req.now ?? Date.now();
  const existing = (await readKeptVideos(storage, req.base)).find((v) => v.key === key);
  if (existing) {
    const updated = { ...existing, chosen: existing.chosen || req.chosen, lastUsed: now };
    const list = await readKeptVideos(storage, req.base);
    await writeIndex(storage, req.base, list.map((v) => (v.key === key ? updated : v)));
    return updated;
  }
  let blob: Blob;
  let type: string;
  try {
    // The whole file, not a range: the service worker passes this request to the network.
    const response = await fetch(req.url, { signal: req.signal, cache: 'no-store' });
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    type = response.headers.get('content-type') ?? 'video/mp4';
    blob = await response.blob();
  } catch (error) {
    if (req.signal?.aborted) throw error;
    throw new KeepVideoError('download-failed');
  }
  if (blob.size > req.budgetBytes) throw new KeepVideoError('too-large', blob.size);
  const list = await readKeptVideos(storage, req.base);
  const evict = videosToEvict(list, blob.size, req.budgetBytes);
  const cache = await storage.open(KEPT_VIDEOS_CACHE);
  for (const video of evict) await cache.delete(video.key);
  const kept: KeptVideo = { key, videoId: req.videoId, bytes: blob.size, keptAt: now, lastUsed: now, chosen: req.chosen };
  const remaining = list.filter((v) => !evict.includes(v));
  try {
    await cache.put(key, new Response(blob, { headers: { 'content-type': type, 'content-length': String(blob.size) } }));
  } catch {
    await writeIndex(storage, req.base, remaining);
    throw new KeepVideoError('storage-full', blob.size);
  }
  await writeIndex(storage, req.base, [...remaining, kept]);
  return kept;
}

export async function removeKeptVideo(storage: CacheStorage, key: string, base: string): Promise<void> {
  const cache = await storage.open(KEPT_VIDEOS_CACHE);
  await cache.delete(key);
  await writeIndex(storage, base, (await readKeptVideos(storage, base)).filter((v) => v.key !== key));
}

/** Removes kept videos until the rest fit in `budgetBytes` (a smaller budget was chosen). */
export async function fitKeptVideos(storage: CacheStorage, budgetBytes: number, base: string): Promise<number> {
  const list = await readKeptVideos(storage, base);
  const evict = videosToEvict(list, 0, budgetBytes);
  if (evict.length === 0) return 0;
  const cache = await storage.open(KEPT_VIDEOS_CACHE);
  for (const video of evict) await cache.delete(video.key);
  await writeIndex(storage, base, list.filter((v) => !evict.includes(v)));
  return evict.length;
}

/** The worker: the kept file for a video link, noted as played now; null when it is not kept. */
export async function matchKeptVideo(storage: CacheStorage, url: string, base: string, now = Date.now()): Promise<Response | null> {
  const key = keptVideoKey(url, base);
  const cache = await storage.open(KEPT_VIDEOS_CACHE);
  const response = await cache.match(key);
  if (!response) return null;
  const list = await readKeptVideos(storage, base);
  const entry = list.find((v) => v.key === key);
  // A player asks for many ranges while it plays: one note a minute is enough for the order.
  if (entry && now - entry.lastUsed > 60_000) {
    await writeIndex(storage, base, list.map((v) => (v.key === key ? { ...v, lastUsed: now } : v)));
  }
  return response;
}
