import { QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/react-query-persist-client';
import { afterEach, describe, expect, it } from 'vitest';
import { closeLoomDb, openLoomDb } from '../../../src/lib/db/open-db';
import { wipeAllUserData } from '../../../src/lib/db/wipe-user';
import { createIdbPersister } from '../../../src/lib/query/idb-persister';
import { busterFor, startQueryPersistence } from '../../../src/lib/query/persistence';

const dehydrateOptions = {
  shouldDehydrateQuery: (q: { meta?: Record<string, unknown>; state: { data: unknown } }) => q.meta?.persist === true && q.state.data !== undefined,
};

async function seeded(): Promise<QueryClient> {
  const client = new QueryClient();
  await client.prefetchQuery({ queryKey: ['prompts', 'list'], queryFn: () => [{ type: 'image', content: 'saved' }], meta: { persist: true } });
  await client.prefetchQuery({ queryKey: ['secret'], queryFn: () => 'not persisted' });
  return client;
}

describe('IndexedDB query persister', () => {
  afterEach(async () => {
    await wipeAllUserData();
    await closeLoomDb();
  });

  it('saves only queries that ask for it, and restores them into a fresh client', async () => {
    const persister = createIdbPersister('id:1', { throttleMs: 10 });
    await persistQueryClientSave({ queryClient: await seeded(), persister, buster: busterFor('id:1'), dehydrateOptions });
    await persister.flush();
    const fresh = new QueryClient();
    await persistQueryClientRestore({ queryClient: fresh, persister, buster: busterFor('id:1') });
    expect(fresh.getQueryData(['prompts', 'list'])).toEqual([{ type: 'image', content: 'saved' }]);
    expect(fresh.getQueryData(['secret'])).toBeUndefined();
    expect(fresh.getQueryState(['prompts', 'list'])?.dataUpdatedAt).toBeGreaterThan(0);
  });

  it('keeps each user apart and never restores another user or release (buster)', async () => {
    const a = createIdbPersister('id:1', { throttleMs: 10 });
    await persistQueryClientSave({ queryClient: await seeded(), persister: a, buster: busterFor('id:1'), dehydrateOptions });
    await a.flush();
    const b = createIdbPersister('id:2');
    expect(await b.restoreClient()).toBeUndefined();
    const wrongBuster = new QueryClient();
    await persistQueryClientRestore({ queryClient: wrongBuster, persister: a, buster: 'other-version:id:1' });
    expect(wrongBuster.getQueryData(['prompts', 'list'])).toBeUndefined();
    // A mismatched buster also removes the stale record.
    expect(await a.restoreClient()).toBeUndefined();
  });

  it('coalesces saves and writes the latest; cancel drops a pending save; removeClient deletes', async () => {
    const persister = createIdbPersister('id:3', { throttleMs: 20 });
    const base = { buster: 'b', clientState: { queries: [], mutations: [] } };
    persister.persistClient({ ...base, timestamp: 1 });
    persister.persistClient({ ...base, timestamp: 2 });
    await new Promise((r) => setTimeout(r, 60));
    expect((await persister.restoreClient())?.timestamp).toBe(2);
    persister.persistClient({ ...base, timestamp: 3 });
    persister.cancel();
    await new Promise((r) => setTimeout(r, 60));
    expect((await persister.restoreClient())?.timestamp).toBe(2);
    await persister.removeClient();
    expect(await persister.restoreClient()).toBeUndefined();
    const db = await openLoomDb();
    expect(await db.count('query-cache')).toBe(0);
  });

  it('keeps data of a query whose refetch failed offline (status error, data kept)', async () => {
    const client = await seeded();
    const active = await startQueryPersistence(client, 'id:5');
    await client
      .fetchQuery({ queryKey: ['prompts', 'list'], queryFn: () => Promise.reject(new Error('offline')), meta: { persist: true }, staleTime: 0 })
      .catch(() => undefined);
    expect(client.getQueryState(['prompts', 'list'])?.status).toBe('error');
    await active.persister.flush();
    active.stop();
    const fresh = new QueryClient();
    const again = await startQueryPersistence(fresh, 'id:5');
    expect(fresh.getQueryData(['prompts', 'list'])).toEqual([{ type: 'image', content: 'saved' }]);
    // Restored data counts as stale, so a mounted page asks the server again.
    expect(fresh.getQueryState(['prompts', 'list'])?.isInvalidated).toBe(true);
    again.stop();
  });

  it('restores before returning, then keeps saving changes of persisted queries', async () => {
    const persister = createIdbPersister('id:4', { throttleMs: 10 });
    await persistQueryClientSave({ queryClient: await seeded(), persister, buster: busterFor('id:4'), dehydrateOptions });
    await persister.flush();
    const client = new QueryClient();
    const active = await startQueryPersistence(client, 'id:4');
    expect(client.getQueryData(['prompts', 'list'])).toEqual([{ type: 'image', content: 'saved' }]);
    client.setQueryData(['prompts', 'list'], [{ type: 'video', content: 'changed' }]);
    await active.persister.flush();
    active.stop();
    const again = new QueryClient();
    await persistQueryClientRestore({ queryClient: again, persister, buster: busterFor('id:4') });
    expect(again.getQueryData(['prompts', 'list'])).toEqual([{ type: 'video', content: 'changed' }]);
  });
});
