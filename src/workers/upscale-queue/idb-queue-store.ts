// The queue store on IndexedDB: survives reloads, crashes and closed tabs. Writes go through the
// app's quota recovery: a full disk evicts cached media (it can be fetched again) and retries once.
import { withQuotaRecovery } from '../../lib/db/quota';
import type { QueueStore } from './queue-store';
import { FILES, QUEUE, RESULTS, openUpscaleDb } from './upscale-db';

export function createIdbQueueStore(): QueueStore {
  return {
    async loadItems(owner) {
      const db = await openUpscaleDb();
      return db.getAllFromIndex(QUEUE, 'byUser', owner);
    },
    async putItem(item) {
      const db = await openUpscaleDb();
      await withQuotaRecovery(() => db.put(QUEUE, item));
    },
    async deleteItem(id) {
      const db = await openUpscaleDb();
      await db.delete(QUEUE, id);
    },
    async getSourceBlob(fileId) {
      const db = await openUpscaleDb();
      const file = await db.get(FILES, fileId);
      // Re-type the Blob: stored Files may come back as plain Blobs without their type.
      return file ? new Blob([file.blob], { type: file.type }) : undefined;
    },
    async putResult(itemId, owner, blob) {
      const db = await openUpscaleDb();
      await withQuotaRecovery(
        () => db.put(RESULTS, { id: itemId, userKey: owner, blob, type: blob.type }),
        blob.size,
      );
    },
    async deleteResult(itemId) {
      const db = await openUpscaleDb();
      await db.delete(RESULTS, itemId);
    },
  };
}
