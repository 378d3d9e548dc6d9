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
      rows.splice(
        rows.findIndex((x) => x.seq === r.seq),
        1,
        r,
      );
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
  /** Every request that left the device, applied or not (ids). */
  const requests: string[] = [];
  const seen = new Set<string>();
  let down = false;
  let refuse: ((r: OutboxRecord) => string | null) | null = null;
  return {
    applied,
    requests,
    setDown: (v: boolean) => (down = v),
    setRefuse: (f: typeof refuse) => (refuse = f),
    async send(r: OutboxRecord, _signal?: AbortSignal) {
      requests.push(r.id);
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
    send: (r, signal) => server.send(r, signal),
    classify: (e) => ({
      kind: (e as { retry?: boolean }).retry ? 'retry' : 'refused',
      message: (e as Error).message,
    }),
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
    // Each item left the device once: not several times, deduplicated by the server.
    expect(server.requests).toEqual(['key-1', 'key-2', 'key-3', 'key-4']);
    expect(server.applied).toEqual(['1', '2', '3', '4']);
  });

  it('reports why a retryable failure stopped the run, with the wait the server asked for', async () => {
    const { storage, server } = setup();
    const outbox = createOutbox({
      storage,
      send: (r) => server.send(r),
      classify: (e) => ({ kind: 'retry', message: (e as Error).message, retryAfterMs: 30_000 }),
      currentUser: () => 'id:1',
    });
    server.setDown(true);
    await outbox.enqueue('id:1', 'prompt', { n: 1 });
    const report = await outbox.flush('id:1');
    expect(report).toMatchObject({ stopped: true, failure: { message: 'network', retryAfterMs: 30_000 } });
    expect(report.failure).not.toHaveProperty('kind');
  });

  it('halt() aborts the send in flight and writes nothing back; nothing runs until resume()', async () => {
    const { storage, outbox } = (() => {
      const storage = memoryStorage();
      let release: (() => void) | null = null;
      const sent: string[] = [];
      const outbox = createOutbox({
        storage,
        // A request that only ends when aborted, like a slow server at logout time.
        send: (r, signal) =>
          new Promise((_resolve, reject) => {
            sent.push(r.id);
            release = () => reject(Object.assign(new Error('aborted'), { retry: true }));
            signal.addEventListener('abort', () => release?.());
          }),
        classify: (e) => ({
          kind: (e as { retry?: boolean }).retry ? 'retry' : 'refused',
          message: (e as Error).message,
        }),
        currentUser: () => 'id:1',
      });
      return { storage: Object.assign(storage, { sent }), outbox };
    })();
    await outbox.enqueue('id:1', 'prompt', { n: 1 });
    const puts: OutboxRecord[] = [];
    const put = storage.put.bind(storage);
    storage.put = async (r) => {
      puts.push(r);
      await put(r);
    };
    const running = outbox.flush('id:1');
    await new Promise((r) => setTimeout(r, 5));
    expect(storage.sent).toHaveLength(1);
    await outbox.halt();
    // The wipe happens now; the aborted run must not put the item back afterwards.
    storage.rows.length = 0;
    expect(await running).toMatchObject({ stopped: true, sent: [] });
    expect(puts).toEqual([]);
    expect(storage.rows).toEqual([]);

    await outbox.enqueue('id:1', 'prompt', { n: 2 });
    expect(await outbox.flush('id:1')).toMatchObject({ stopped: true, sent: [] });
    expect(storage.sent).toHaveLength(1);
    outbox.resume();
    void outbox.flush('id:1');
    await new Promise((r) => setTimeout(r, 5));
    expect(storage.sent).toHaveLength(2);
    await outbox.halt();
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
    server.setRefuse((r) =>
      (r.payload as { n: number }).n === 1 ? 'A prompt of this type already exists' : null,
    );
    const report = await outbox.flush('id:1');
    expect(report.refused).toHaveLength(1);
    expect(server.applied).toEqual(['2']);
    expect(storage.rows).toEqual([
      expect.objectContaining({
        state: 'refused',
        error: 'A prompt of this type already exists',
        payload: { n: 1, text: 'my words' },
      }),
    ]);
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
    const a = await idbOutboxStorage.add({
      id: 'x1',
      userKey: 'id:5',
      kind: 'k',
      payload: 1,
      createdAt: 1,
      state: 'pending',
      attempts: 0,
    });
    await idbOutboxStorage.add({
      id: 'x2',
      userKey: 'id:6',
      kind: 'k',
      payload: 2,
      createdAt: 2,
      state: 'pending',
      attempts: 0,
    });
    const c = await idbOutboxStorage.add({
      id: 'x3',
      userKey: 'id:5',
      kind: 'k',
      payload: 3,
      createdAt: 3,
      state: 'pending',
      attempts: 0,
    });
    expect((await idbOutboxStorage.list('id:5')).map((r) => r.id)).toEqual(['x1', 'x3']);
    await idbOutboxStorage.remove(a.seq as number);
    await idbOutboxStorage.put({ ...c, state: 'refused', error: 'no' });
    expect(await idbOutboxStorage.list('id:5')).toEqual([
      expect.objectContaining({ id: 'x3', state: 'refused' }),
    ]);
  });
});
