// Media blobs kept for offline viewing (thumbnails, results), with a last-used time for eviction.
import { openLoomDb } from './open-db';
import { withQuotaRecovery } from './quota';
import type { MediaRecord } from './schema';

export async function putMedia(userKey: string, url: string, blob: Blob, now = Date.now()): Promise<void> {
  const record: MediaRecord = { url, userKey, blob, type: blob.type, size: blob.size, lastUsed: now };
  await withQuotaRecovery(async () => {
    const db = await openLoomDb();
    await db.put('media', record);
  }, blob.size);
}

/** Reads a blob and marks it used, so it is the last to be evicted. Only the owner's. */
export async function getMedia(userKey: string, url: string, now = Date.now()): Promise<Blob | undefined> {
  const db = await openLoomDb();
  const tx = db.transaction('media', 'readwrite');
  const record = await tx.store.get(url);
  if (!record || record.userKey !== userKey) {
    await tx.done;
    return undefined;
  }
  await tx.store.put({ ...record, lastUsed: now });
  await tx.done;
  return new Blob([record.blob], { type: record.type });
}
