import { describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../../../src/lib/db/schema';
import { createOutbox, type OutboxStorage } from '../../../src/lib/offline/outbox';
import { idbOutboxStorage } from '../../../src/lib/offline/outbox-store';

function memoryStorage(): OutboxStorage & { rows: OutboxRecord[] } {
  const rows: OutboxRecord[] = [];
  let seq = 0;
  return {
    rows,
    async add(r) {
      seq += 1;
      const withSeq = { ...r, seq };
      rows.push(withSeq);
      return withSeq;
    },
    async list(userKey) {
      return rows.filter((r) => r.userKey === userKey).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    },
    async put(r) {
      rows.splice(rows.findIndex((x) => x.seq === r.seq), 1, r);
    },
    async remove(s) {
      const i = rows.findIndex((x) => x.seq === s);
      if (i >= 0) rows.splice(i, 1);
    },
  };
}

/** A fake server that applies each idempotency key once, like the real one. */
function fakeServer() {
  const applied: string[] = [];
  const seen = new Set<string>();
  let down = false;
  let refuse: ((r: OutboxRecord) => string | null) | null = null;
  return {
    applied,
    setDown: (v: boolean) => (down = v),
    setRefuse: (f: typeof refuse) => (refuse = f),
    async send(r: OutboxRecord) {
      await new Promise((res) => setTimeout(res, 1));
      if (down) throw Object.assign(new Error('network'), { retry: true });
      const why = refuse?.(r);
      if (why) throw new Error(why);
      if (!seen.has(r.id)) {
        seen.add(r.id);
        applied.push(String((r.payload as { n: number }).n));
      }
    },
  };
}

function setup(user: { key: string | null } = { key: 'id:1' }) {
  const storage = memoryStorage();
  const server = fakeServer();
  let n = 0;
  const outbox = createOutbox({
    storage,
    send: (r) => server.send(r),
    classify: (e) => ({ kind: (e as { retry?: boolean }).retry ? 'retry' : 'refused', message: (e as Error).message }),
    currentUser: () => user.key,
    newId: () => `key-${(n += 1)}`,
  });
  return { storage, server, outbox, user };
}

describe('outbox', () => {
  it('replays in the order the changes were made, then empties', async () => {
    const { outbox, server, storage } = setup();
    server.setDown(true);
    for (const i of [1, 2, 3]) await outbox.enqueue('id:1', 'prompt', { n: i });
    const offline = await outbox.flush('id:1');
    expect(offline.stopped).toBe(true);
    expect(storage.rows.map((r) => r.attempts)).toEqual([1, 0, 0]);
    server.setDown(false);
    const report = await outbox.flush('id:1');
    expect(report.sent.map((r) => (r.payload as { n: number }).n)).toEqual([1, 2, 3]);
    expect(server.applied).toEqual(['1', '2', '3']);
    expect(storage.rows).toEqual([]);
  });

  it('applies each item exactly once when flushes overlap (reconnect + reload + tab)', async () => {
    const { outbox, server } = setup();
    for (const i of [1, 2, 3, 4]) await outbox.enqueue('id:1', 'prompt', { n: i });
    await Promise.all([outbox.flush('id:1'), outbox.flush('id:1'), outbox.flush('id:1')]);
    expect(server.applied).toEqual(['1', '2', '3', '4']);
  });

  it('sends the same idempotency key again when a reply was lost, and the server applies it once', async () => {
    const { outbox, server, storage } = setup();
    await outbox.enqueue('id:1', 'prompt', { n: 7 });
    // The server applies it but the answer never arrives (the connection drops).
    const original = server.send.bind(server);
    let drop = true;
    server.send = async (r) => {
      await original(r);
      if (drop) throw Object.assign(new Error('reply lost'), { retry: true });
    };
    await outbox.flush('id:1');
    expect(storage.rows).toHaveLength(1);
    drop = false;
    await outbox.flush('id:1');
    expect(server.applied).toEqual(['7']);
    expect(storage.rows).toHaveLength(0);
  });

  it('keeps a refused item with the server message and the user text, and goes on with the rest', async () => {
    const { outbox, server, storage } = setup();
    await outbox.enqueue('id:1', 'prompt', { n: 1, text: 'my words' });
    await outbox.enqueue('id:1', 'prompt', { n: 2 });
    server.setRefuse((r) => ((r.payload as { n: number }).n === 1 ? 'A prompt of this type already exists' : null));
    const report = await outbox.flush('id:1');
    expect(report.refused).toHaveLength(1);
    expect(server.applied).toEqual(['2']);
    expect(storage.rows).toEqual([expect.objectContaining({ state: 'refused', error: 'A prompt of this type already exists', payload: { n: 1, text: 'my words' } })]);
    // Refused items are not sent again by later flushes.
    server.setRefuse(null);
    await outbox.flush('id:1');
    expect(server.applied).toEqual(['2']);
    await outbox.discard(storage.rows[0]?.seq as number);
    expect(storage.rows).toEqual([]);
  });

  it("never sends one user's items for another, even if the session changes mid-run", async () => {
    const { outbox, server, storage, user } = setup({ key: 'id:2' });
    await outbox.enqueue('id:1', 'prompt', { n: 1 });
    await outbox.flush('id:1');
    expect(server.applied).toEqual([]);
    user.key = 'id:1';
    await outbox.enqueue('id:1', 'prompt', { n: 2 });
    await outbox.enqueue('id:1', 'prompt', { n: 3 });
    const original = server.send.bind(server);
    server.send = async (r) => {
      await original(r);
      user.key = 'id:9';
    };
    await outbox.flush('id:1');
    expect(server.applied).toEqual(['1']);
    expect(storage.rows.map((r) => (r.payload as { n: number }).n)).toEqual([2, 3]);
  });

  it('stores items in IndexedDB in order, per user', async () => {
    const a = await idbOutboxStorage.add({ id: 'x1', userKey: 'id:5', kind: 'k', payload: 1, createdAt: 1, state: 'pending', attempts: 0 });
    await idbOutboxStorage.add({ id: 'x2', userKey: 'id:6', kind: 'k', payload: 2, createdAt: 2, state: 'pending', attempts: 0 });
    const c = await idbOutboxStorage.add({ id: 'x3', userKey: 'id:5', kind: 'k', payload: 3, createdAt: 3, state: 'pending', attempts: 0 });
    expect((await idbOutboxStorage.list('id:5')).map((r) => r.id)).toEqual(['x1', 'x3']);
    await idbOutboxStorage.remove(a.seq as number);
    await idbOutboxStorage.put({ ...c, state: 'refused', error: 'no' });
    expect(await idbOutboxStorage.list('id:5')).toEqual([expect.objectContaining({ id: 'x3', state: 'refused' })]);
  });
});
