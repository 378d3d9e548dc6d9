// Where the queue keeps its items, source files and results between reloads. The engine only sees
// this interface, so tests run it on a map and the app on IndexedDB.
import type { QueueItem } from './protocol';

export interface QueueStore {
  loadItems(owner: string): Promise<QueueItem[]>;
  putItem(item: QueueItem): Promise<void>;
  deleteItem(id: string): Promise<void>;
  getSourceBlob(fileId: string): Promise<Blob | undefined>;
  putResult(itemId: string, owner: string, blob: Blob): Promise<void>;
  deleteResult(itemId: string): Promise<void>;
}

/** A store in memory; what unit tests and a browser without IndexedDB use. */
export function createMemoryQueueStore(files: Map<string, Blob> = new Map()): QueueStore & {
  items: Map<string, QueueItem>;
  results: Map<string, Blob>;
} {
  const items = new Map<string, QueueItem>();
  const results = new Map<string, Blob>();
  return {
    items,
    results,
    async loadItems(owner) {
      return [...items.values()].filter((i) => i.userKey === owner).map((i) => structuredClone(i));
    },
    async putItem(item) {
      items.set(item.id, structuredClone(item));
    },
    async deleteItem(id) {
      items.delete(id);
    },
    async getSourceBlob(fileId) {
      return files.get(fileId);
    },
    async putResult(itemId, _owner, blob) {
      results.set(itemId, blob);
    },
    async deleteResult(itemId) {
      results.delete(itemId);
    },
  };
}
