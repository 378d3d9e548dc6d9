import { describe, expect, it } from 'vitest';
import { createMemoryQueueStore } from '../../../src/workers/upscale-queue/queue-store';
import type { QueueItem } from '../../../src/workers/upscale-queue/protocol';
import { RETRY_POLICY } from '../../../src/lib/retry/retry-policy';
import { RETRY_BUDGET_SPENT } from '../../../src/workers/upscale-queue/retry-budget';
import { AUTH, PARAMS, createHarness, entries, flush, ok } from './queue-harness';

describe('upscale queue: sliding window of three', () => {
  it('never has more than three requests in flight and starts the next as soon as one ends', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(7), PARAMS);
    await flush();
    expect(h.pending).toHaveLength(3);
    expect(h.sent.map((r) => r.fileName)).toEqual(['img-0.png', 'img-1.png', 'img-2.png']);

    // Finishing the second one frees one slot: exactly one more starts (not a whole new batch of 3).
    h.pending[1]!.resolve(ok());
    await flush();
    expect(h.pending).toHaveLength(3);
    expect(h.sent).toHaveLength(4);
    expect(h.statusOf(ids[1]!)).toBe('completed');

    while (h.pending.length > 0) {
      h.pending[0]!.resolve(ok());
      await flush();
    }
    expect(h.sent).toHaveLength(7);
    expect(h.maxConcurrent).toBe(3);
    expect(ids.map((id) => h.statusOf(id))).toEqual(Array(7).fill('completed'));
  });

  it('reports the upload percentage while processing', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    h.pending[0]!.hooks.onProgress(42.4);
    expect(h.snapshot.items.find((i) => i.id === id)).toMatchObject({ status: 'processing', progress: 42 });
  });

  it('sends the parameters, the token and an idempotency key per item', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    await h.engine.enqueue(entries(2), { ...PARAMS, tileMode: 2, alpha: 0.7 });
    await flush();
    const [a, b] = h.sent;
    expect(a).toMatchObject({
      token: 't1',
      baseUrl: AUTH.baseUrl,
      params: { tileMode: 2, cacheMode: 0, alpha: 0.7 },
    });
    expect(a!.idempotencyKey).not.toEqual(b!.idempotencyKey);
  });
});

describe('upscale queue: cancel', () => {
  it('cancels a waiting item and an item in flight, as cancelled and never as an error', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(5), PARAMS);
    await flush();
    await h.engine.cancel(ids[4]!); // waiting
    await h.engine.cancel(ids[0]!); // in flight
    await flush();
    expect(h.statusOf(ids[0]!)).toBe('cancelled');
    expect(h.statusOf(ids[4]!)).toBe('cancelled');
    expect(h.snapshot.items.find((i) => i.id === ids[0])?.error).toBeUndefined();
    // The freed slot went to the next waiting item; the cancelled waiting one is never sent.
    expect(h.sent.map((r) => r.fileName)).toEqual(['img-0.png', 'img-1.png', 'img-2.png', 'img-3.png']);
  });

  it('cancel all stops every waiting and running item', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(6), PARAMS);
    await flush();
    await h.engine.cancelAll();
    await flush();
    expect(ids.map((id) => h.statusOf(id))).toEqual(Array(6).fill('cancelled'));
    expect(h.pending).toHaveLength(0);
    expect(h.sent).toHaveLength(3);
  });
});

describe('upscale queue: retry', () => {
  it('retries one failed item with a new key, and all failed at once', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(3), PARAMS);
    await flush();
    for (const p of [...h.pending])
      p.resolve({ kind: 'http-error', status: 500, code: 500, message: 'boom' });
    await flush();
    expect(ids.map((id) => h.statusOf(id))).toEqual(['failed', 'failed', 'failed']);
    expect(h.snapshot.items[0]!.error).toMatchObject({ status: 500, message: 'boom' });

    const firstKey = h.sent[0]!.idempotencyKey;
    await h.engine.retry(ids[0]!);
    await flush();
    expect(h.sent).toHaveLength(4);
    expect(h.sent[3]!.idempotencyKey).not.toBe(firstKey);

    await h.engine.retryAllFailed();
    await flush();
    expect(h.sent).toHaveLength(6);
    for (const p of [...h.pending]) p.resolve(ok());
    await flush();
    expect(ids.map((id) => h.statusOf(id))).toEqual(['completed', 'completed', 'completed']);
  });

  it('retries a cancelled item', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    await h.engine.cancel(id!);
    await flush();
    await h.engine.retry(id!);
    await flush();
    expect(h.statusOf(id!)).toBe('processing');
    expect(h.sent).toHaveLength(2);
  });
});

describe('upscale queue: persistence and resume', () => {
  function stored(id: string, seq: number, patch: Partial<QueueItem>): QueueItem {
    return {
      id,
      userKey: 'alice',
      fileId: `file-${id}`,
      fileName: `${id}.png`,
      fileType: 'image/png',
      fileSize: 3,
      params: PARAMS,
      status: 'waiting',
      progress: 0,
      idempotencyKey: `key-${id}`,
      bytesSent: false,
      attempts: 0,
      seq,
      createdAt: seq,
      updatedAt: seq,
      ...patch,
    };
  }

  it('persists every state change', async () => {
    const store = createMemoryQueueStore();
    const h = createHarness(store);
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    expect(store.items.get(id!)?.status).toBe('processing');
    h.pending[0]!.resolve(ok('a.png'));
    await flush();
    expect(store.items.get(id!)).toMatchObject({ status: 'completed', result: { filename: 'a.png' } });
  });

  function reloadedStore() {
    const files = new Map(['a', 'b', 'c', 'd', 'f'].map((k) => [`file-${k}`, new Blob([k])]));
    const store = createMemoryQueueStore(files);
    return Promise.all([
      store.putItem(stored('a', 0, { status: 'completed' })),
      store.putItem(stored('b', 1, { status: 'processing', bytesSent: true, attempts: 1 })),
      store.putItem(stored('c', 2, { status: 'processing', bytesSent: false, attempts: 1 })),
      store.putItem(stored('d', 3, { status: 'waiting' })),
      store.putItem(stored('f', 5, { status: 'waiting' })),
      store.putItem({ ...stored('e', 4, {}), userKey: 'bob' }),
    ]).then(() => store);
  }

  it('resumes a reloaded queue: the cut-short request is resent with its kept key, the window stays at three', async () => {
    const store = await reloadedStore();
    const h = createHarness(store);
    h.setProbe(true);
    await h.engine.configure(AUTH);
    await flush();
    // Once the server says it replays, the possibly-sent one goes again in its place, with its key.
    expect(h.probes).toBe(1);
    expect(h.sent.map((r) => r.fileName)).toEqual(['b.png', 'c.png', 'd.png']);
    expect(h.sent.map((r) => r.idempotencyKey)).toEqual(['key-b', 'key-c', 'key-d']);
    expect(h.statusOf('a')).toBe('completed');
    expect(h.statusOf('b')).toBe('processing');
    expect(h.statusOf('f')).toBe('waiting');
    expect(h.maxConcurrent).toBe(3);
    // Another user's item is neither shown nor sent.
    expect(h.snapshot.items.map((i) => i.id)).not.toContain('e');

    while (h.pending.length > 0) {
      h.pending[0]!.resolve(ok());
      await flush();
    }
    expect(h.snapshot.items.map((i) => i.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
    ]);
    // One request per item, and b's second attempt carried the first attempt's key.
    expect(h.sent.map((r) => r.fileName).sort()).toEqual(['b.png', 'c.png', 'd.png', 'f.png']);
    expect(h.maxConcurrent).toBe(3);
  });

  it('leaves the cut-short request to the user when the server does not say it replays resends', async () => {
    const store = await reloadedStore();
    const h = createHarness(store);
    h.setProbe(true);
    h.setResendSafe(false);
    await h.engine.configure(AUTH);
    await flush();
    expect(h.probes).toBe(1);
    expect(h.sent.map((r) => r.fileName)).toEqual(['c.png', 'd.png', 'f.png']);
    expect(h.statusOf('b')).toBe('interrupted');
    expect(store.items.get('b')?.status).toBe('interrupted');

    // The user's explicit retry reuses the key all the same (a server honouring it replays).
    h.pending[0]!.resolve(ok());
    await h.engine.retry('b');
    await flush();
    expect(h.sent[3]).toMatchObject({ fileName: 'b.png', idempotencyKey: 'key-b' });
  });

  it('resends after a reload while the server is down only once it answers again', async () => {
    const store = await reloadedStore();
    const h = createHarness(store);
    await h.engine.configure(AUTH);
    await flush();
    expect(h.snapshot.paused).toBe('offline');
    expect(h.statusOf('b')).toBe('interrupted');
    expect(h.sent).toHaveLength(0);
    h.setProbe(true);
    await h.fireTimers();
    expect(h.snapshot.paused).toBeNull();
    expect(h.sent.map((r) => r.idempotencyKey)).toEqual(['key-b', 'key-c', 'key-d']);
  });
});

describe('upscale queue: no double send and network loss', () => {
  it('sends every item exactly once in a normal batch', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    await h.engine.enqueue(entries(10), PARAMS);
    await flush();
    while (h.pending.length > 0) {
      h.pending[0]!.resolve(ok());
      await flush();
    }
    const keys = h.sent.map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(10);
    expect(keys).toHaveLength(10);
  });

  it('pauses on network loss and resumes by itself, resending the request that left the device with its key', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(5), PARAMS);
    await flush();
    h.pending[0]!.hooks.onBytesSent();
    const [p0, p1, p2] = [...h.pending];
    const key0 = p0!.request.idempotencyKey;
    p0!.resolve({ kind: 'network', reachedServer: true });
    p1!.resolve({ kind: 'network', reachedServer: false });
    await flush();
    expect(h.snapshot.paused).toBe('offline');
    expect(h.statusOf(ids[0]!)).toBe('interrupted');
    expect(h.statusOf(ids[1]!)).toBe('waiting');
    expect(h.sent).toHaveLength(3); // paused: nothing new starts

    p2!.resolve({ kind: 'network', reachedServer: false });
    h.setProbe(false);
    await h.fireTimers();
    expect(h.snapshot.paused).toBe('offline');
    expect(h.sent).toHaveLength(3);

    h.setProbe(true);
    await h.fireTimers();
    expect(h.snapshot.paused).toBeNull();
    // The window refills in order: item 0 again with its first key, then the ones that never left.
    expect(h.sent.slice(3).map((r) => r.fileName)).toEqual(['img-0.png', 'img-1.png', 'img-2.png']);
    expect(h.sent[3]!.idempotencyKey).toBe(key0);
    expect(h.maxConcurrent).toBe(3);
    while (h.pending.length > 0) {
      h.pending[0]!.resolve(ok());
      await flush();
    }
    expect(h.snapshot.items.every((i) => i.status === 'completed')).toBe(true);
  });

  it('no double send: across repeated cuts every item keeps one key, and the window never exceeds three', async () => {
    const h = createHarness();
    h.setProbe(true);
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(7), PARAMS);
    await flush();
    // Two cuts in a row, each dropping every request that had left the device.
    for (let cut = 0; cut < 2; cut++) {
      for (const p of [...h.pending]) {
        p.hooks.onBytesSent();
        p.resolve({ kind: 'network', reachedServer: true });
      }
      await flush();
      await h.fireTimers();
    }
    await h.completeAll();
    expect(h.snapshot.items.every((i) => i.status === 'completed')).toBe(true);
    expect(h.maxConcurrent).toBe(3);
    const keysByItem = new Map<string, Set<string>>();
    for (const r of h.sent)
      keysByItem.set(r.fileName, (keysByItem.get(r.fileName) ?? new Set()).add(r.idempotencyKey));
    expect(keysByItem.size).toBe(ids.length);
    for (const keys of keysByItem.values()) expect(keys.size).toBe(1);
  });

  it('an item cut short again and again keeps trying on growing delays, and asks the person only after the time budget', async () => {
    const h = createHarness();
    h.setProbe(true);
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    const started = h.now;
    const waits: number[] = [];
    while (h.statusOf(id!) !== 'failed') {
      expect(h.pending).toHaveLength(1);
      h.pending[0]!.hooks.onBytesSent();
      h.pending[0]!.resolve({ kind: 'network', reachedServer: true });
      await flush();
      const item = h.snapshot.items[0]!;
      if (item.status === 'failed') break;
      waits.push(item.retry!.nextAttemptAt - h.now);
      // Not a moment early, even though the service's probe answers.
      await h.advance(waits.at(-1)! - 1);
      expect(h.pending).toHaveLength(0);
      await h.advance(1);
    }
    expect(waits.slice(0, 7)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000]);
    expect(Math.max(...waits)).toBe(60_000);
    expect(h.now - started).toBeGreaterThanOrEqual(RETRY_POLICY.budgetMs);
    expect(h.now - started).toBeLessThan(RETRY_POLICY.budgetMs + 61_000);
    expect(h.snapshot.items[0]!.error?.code).toBe(RETRY_BUDGET_SPENT);
    // A few tries a minute over ten minutes, not four in a few seconds.
    expect(h.sent.length).toBeGreaterThan(10);
    expect(h.sent.length).toBeLessThan(20);
    const sends = h.sent.length;
    await h.engine.retry(id!);
    await flush();
    expect(h.sent).toHaveLength(sends + 1);
    expect(h.snapshot.items[0]!.retry).toBeUndefined();
  });

  it('a success elsewhere brings the waiting items back soon and starts their backoff over', async () => {
    const h = createHarness();
    h.setProbe(true);
    await h.engine.configure(AUTH);
    const [a, b] = await h.engine.enqueue(entries(2), PARAMS);
    await flush();
    const pa = h.pending.find((p) => p.request.fileName === 'img-0.png')!;
    // a fails three times in a row: its next wait would be 8 s.
    pa.resolve({ kind: 'network', reachedServer: false });
    await flush();
    for (const wait of [1000, 2000]) {
      await h.advance(wait);
      h.pending.find((p) => p.request.fileName === 'img-0.png')!.resolve({ kind: 'network', reachedServer: false });
      await flush();
    }
    const item = () => h.snapshot.items.find((i) => i.id === a)!;
    expect(item().retry).toMatchObject({ failures: 3 });
    expect(item().retry!.nextAttemptAt - h.now).toBe(4000);
    h.pending.find((p) => p.request.fileName === 'img-1.png')!.resolve(ok());
    await flush();
    expect(h.statusOf(b!)).toBe('completed');
    expect(item().retry).toMatchObject({ failures: 0 });
    expect(item().retry!.nextAttemptAt - h.now).toBe(1000);
    await h.advance(1000);
    expect(h.pending.map((p) => p.request.fileName)).toEqual(['img-0.png']);
  });

  it('time without any connection is not spent from the budget', async () => {
    const h = createHarness();
    h.setProbe(true);
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    h.setProbe(false);
    h.pending[0]!.resolve({ kind: 'network', reachedServer: false });
    await flush();
    expect(h.snapshot.paused).toBe('offline');
    await h.advance(20 * 60_000);
    expect(h.sent).toHaveLength(1);
    h.setProbe(true);
    await h.advance(10_000);
    expect(h.snapshot.paused).toBeNull();
    expect(h.sent).toHaveLength(2);
    // The next failure is an ordinary second failure, not the end of the budget.
    h.pending[0]!.resolve({ kind: 'network', reachedServer: false });
    await flush();
    expect(h.statusOf(id!)).toBe('waiting');
    expect(h.snapshot.items[0]!.retry).toMatchObject({ failures: 2 });
  });

  it('a gateway timeout or bad gateway is a cut: resent with its key after the delay, honouring Retry-After', async () => {
    const h = createHarness();
    h.setProbe(true);
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    const key = h.sent[0]!.idempotencyKey;
    h.pending[0]!.resolve({ kind: 'http-error', status: 502, code: 502, message: '', retryAfterMs: 7000 });
    await flush();
    expect(h.statusOf(id!)).toBe('waiting');
    await h.advance(6999);
    expect(h.sent).toHaveLength(1);
    await h.advance(1);
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]!.idempotencyKey).toBe(key);
  });

  it('a browser offline event pauses and the online event resumes', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    h.engine.setOnline(false);
    await h.engine.enqueue(entries(2), PARAMS);
    await flush();
    expect(h.sent).toHaveLength(0);
    h.setProbe(true);
    h.engine.setOnline(true);
    await h.fireTimers();
    expect(h.sent).toHaveLength(2);
  });

  it('a busy service (503) puts the item back to wait instead of failing it', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    h.pending[0]!.resolve({
      kind: 'http-error',
      status: 503,
      code: 503,
      message: 'busy',
      retryAfterMs: 2000,
    });
    await flush();
    expect(h.statusOf(id!)).toBe('waiting');
    expect(h.snapshot.paused).toBe('busy');
    h.setProbe(true);
    await h.fireTimers();
    expect(h.sent).toHaveLength(2);
  });

  it('an expired token pauses the queue until a new token arrives', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    h.pending[0]!.resolve({ kind: 'http-error', status: 401, code: 401, message: 'unauthorized' });
    await flush();
    expect(h.snapshot.paused).toBe('auth');
    expect(h.statusOf(id!)).toBe('waiting');
    await h.engine.configure({ ...AUTH, token: 't2' });
    await flush();
    expect(h.sent[1]!.token).toBe('t2');
  });
});
