// Least-recently-used eviction of cached media: the first thing to go when storage is full.
import { openLoomDb } from './open-db';

/** Deletes the least recently used media until at least `bytes` are freed (or none is left). */
export async function evictLeastRecentlyUsedMedia(bytes: number): Promise<{ evictedCount: number; freedBytes: number }> {
  const db = await openLoomDb();
  const tx = db.transaction('media', 'readwrite');
  let cursor = await tx.store.index('byLastUsed').openCursor();
  let freedBytes = 0;
  let evictedCount = 0;
  while (cursor && freedBytes < bytes) {
    freedBytes += cursor.value.size;
    evictedCount += 1;
    await cursor.delete();
    cursor = await cursor.continue();
  }
  await tx.done;
  return { evictedCount, freedBytes };
}
