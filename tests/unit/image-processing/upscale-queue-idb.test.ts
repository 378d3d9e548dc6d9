// The queue over the real IndexedDB store (fake-indexeddb): a page that dies mid-batch comes back
// with its batch, and stored Files come back typed although IndexedDB returns plain Blobs.
import { describe, expect, it } from 'vitest';
import { FILES, openUpscaleDb } from '../../../src/workers/upscale-queue/upscale-db';
import { createIdbQueueStore } from '../../../src/workers/upscale-queue/idb-queue-store';
import { idbFileStore } from '../../../src/features/image-processing/model/file-store';
import { wipeUserData } from '../../../src/lib/db/wipe-user';
import { AUTH, PARAMS, createHarness, flush, ok } from './queue-harness';

/** IndexedDB answers in macrotasks: wait for the state instead of a fixed number of ticks. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await flush();
  expect(check()).toBe(true);
}

async function storeFile(id: string, owner = AUTH.owner) {
  await idbFileStore.put({
    id,
    userKey: owner,
    name: `${id}.png`,
    type: 'image/png',
    size: 3,
    blob: new Blob(['png']),
    addedAt: 1,
  });
}

describe('upscale queue on IndexedDB', () => {
  it('resumes a batch after the page died: unsent items go out, the possibly-sent one is resent with its key once the server answers', async () => {
    for (const id of ['a', 'b', 'c', 'd', 'e']) await storeFile(id);
    const first = createHarness(createIdbQueueStore());
    await first.engine.configure(AUTH);
    const entries = ['a', 'b', 'c', 'd', 'e'].map((id) => ({
      fileId: id,
      name: `${id}.png`,
      type: 'image/png',
      size: 3,
      blob: new Blob(['png']),
    }));
    const ids = await first.engine.enqueue(entries, PARAMS);
    await until(() => first.pending.length === 3);
    first.pending[0]!.resolve(ok());
    await until(() => first.sent.length === 4);
    first.pending[0]!.hooks.onBytesSent(); // b's request left the device
    await flush();
    await until(() => first.statusOf(ids[0]!) === 'completed');
    const keyOfB = first.sent.find((r) => r.fileName === 'b.png')!.idempotencyKey;
    // The page dies here: b, c, d are "processing" in IndexedDB, e is waiting.

    const second = createHarness(createIdbQueueStore());
    await second.engine.configure(AUTH); // the server does not answer yet
    await until(() => second.snapshot.paused === 'offline');
    const status = (id: string) => second.statusOf(id);
    expect(status(ids[0]!)).toBe('completed');
    expect(status(ids[1]!)).toBe('interrupted');
    expect(second.sent).toHaveLength(0);

    // The server answers and says it replays a resend: b goes again first, with its first key.
    second.setProbe(true);
    await second.fireTimers();
    await until(() => second.sent.length === 3);
    expect(second.sent.map((r) => r.fileName)).toEqual(['b.png', 'c.png', 'd.png']);
    expect(second.sent[0]!.idempotencyKey).toBe(keyOfB);
    second.pending[0]!.resolve(ok());
    await until(() => second.sent.length === 4);
    expect(second.sent[3]!.fileName).toBe('e.png');
    expect(second.maxConcurrent).toBe(3);
  });

  it('gives stored files back with their name and type, and logout wipes them with the queue', async () => {
    await storeFile('z', 'id:9');
    const [file] = (await idbFileStore.list('id:9')).filter((f) => f.id === 'z');
    expect(file).toMatchObject({ name: 'z.png', type: 'image/png' });
    expect(file!.blob.type).toBe('image/png');
    await wipeUserData('id:9');
    const db = await openUpscaleDb();
    expect(await db.get(FILES, 'z')).toBeUndefined();
  });
});
