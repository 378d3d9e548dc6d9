// TanStack Query's Persister over IndexedDB: one record per user in the 'query-cache' store.
// Saves are coalesced (the cache changes on every fetch) and survive a full disk by evicting media.
import type { PersistedClient, Persister } from '@tanstack/react-query-persist-client';
import { openLoomDb } from '../db/open-db';
import { withQuotaRecovery } from '../db/quota';

export interface IdbPersister extends Persister {
  /** Writes a pending save now (before logout, in tests). */
  flush(): Promise<void>;
  /** Drops a pending save without writing it (logout: nothing may be written after the wipe). */
  cancel(): void;
}

export function createIdbPersister(userKey: string, options: { throttleMs?: number } = {}): IdbPersister {
  const throttleMs = options.throttleMs ?? 250;
  let pending: PersistedClient | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();

  async function write(): Promise<void> {
    timer = null;
    const client = pending;
    pending = null;
    if (!client) return;
    await withQuotaRecovery(async () => {
      const db = await openLoomDb();
      await db.put('query-cache', { userKey, client, savedAt: Date.now() });
    });
  }

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    writing = writing.then(write, write);
    return writing;
  };

  return {
    persistClient(client) {
      pending = client;
      timer ??= setTimeout(() => void flush(), throttleMs);
    },
    async restoreClient() {
      const db = await openLoomDb();
      const record = await db.get('query-cache', userKey);
      return record?.client;
    },
    async removeClient() {
      this.cancel();
      await writing.catch(() => undefined);
      const db = await openLoomDb();
      await db.delete('query-cache', userKey);
    },
    flush,
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
