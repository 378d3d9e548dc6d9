// The outbox's storage in IndexedDB ('outbox' store, auto-increment seq = order of the changes).
import { openLoomDb } from '../db/open-db';
import { withQuotaRecovery } from '../db/quota';
import type { OutboxStorage } from './outbox';

export const idbOutboxStorage: OutboxStorage = {
  async add(record) {
    return withQuotaRecovery(async () => {
      const db = await openLoomDb();
      const seq = await db.add('outbox', record);
      return { ...record, seq };
    });
  },
  async list(userKey) {
    const db = await openLoomDb();
    const items = await db.getAllFromIndex('outbox', 'byUser', userKey);
    return items.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  },
  async put(record) {
    const db = await openLoomDb();
    await db.put('outbox', record);
  },
  async remove(seq) {
    const db = await openLoomDb();
    await db.delete('outbox', seq);
  },
};
