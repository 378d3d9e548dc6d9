// Adding to the workshop's waiting line on the device (IndexedDB through fake-indexeddb): an item
// shows only once it is kept, so a reload finds it; a full disk first gives up an old upscale
// result (it can be downloaded again) and the item is kept; when nothing can be freed, the add
// fails with the storage's error and nothing shows.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useWorkshopQueue } from '../../../src/features/workshop/hooks/use-workshop-queue';
import type { QueueEntry } from '../../../src/features/workshop/model/workshop-queue';
import { initI18n } from '../../../src/i18n/i18n';
import { openLoomDb } from '../../../src/lib/db/open-db';
import { readWorkshopQueue, wipeWorkshopQueue } from '../../../src/lib/db/workshop-queue-store';

const USER = 'id:7';
const ITEM = {
  type: 'image' as const,
  text: '',
  files: [
    { name: 'linen.png', type: 'image/png', blob: new Blob([new Uint8Array(2048)], { type: 'image/png' }) },
  ],
  config: { creativity: 0.5, precision: 0.5, style: 'natural' as const },
};

function renderQueue() {
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  // Two items already run on the server, so what is added waits on the device and is not sent.
  return renderHook(() => useWorkshopQueue(USER, 2), { wrapper });
}

/**
 * The device's storage refuses every write to the workshop's line, as a full disk does, until
 * something in `freedBy` is deleted (never, when it is not given).
 */
function fillTheDisk(freedBy?: string): () => void {
  const { put, delete: remove } = IDBObjectStore.prototype;
  let full = true;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    if (full && this.name === 'queue')
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return put.apply(this, args);
  };
  IDBObjectStore.prototype.delete = function (this: IDBObjectStore, query: IDBValidKey | IDBKeyRange) {
    if (this.name === freedBy) full = false;
    return remove.call(this, query);
  };
  return () => {
    IDBObjectStore.prototype.put = put;
    IDBObjectStore.prototype.delete = remove;
  };
}

beforeAll(() => initI18n());

afterEach(() => wipeWorkshopQueue(null));

describe('adding to the workshop queue', () => {
  it('shows an item once it is kept on the device, where a reload finds it', async () => {
    const { result, unmount } = renderQueue();
    await waitFor(() => expect(result.current.loaded).toBe(true));
    await act(() => result.current.add(ITEM));
    expect(result.current.entries).toHaveLength(1);
    expect(result.current.entries[0]).toMatchObject({ state: 'waiting', userKey: USER });
    const kept = await readWorkshopQueue<QueueEntry>(USER);
    expect(kept.map((e) => e.id)).toEqual([result.current.entries[0]!.id]);
    expect(kept[0]!.files[0]).toMatchObject({ name: 'linen.png', type: 'image/png' });
    expect(kept[0]!.files[0]!.blob).toBeDefined();

    const id = result.current.entries[0]!.id;
    unmount();
    const reloaded = renderQueue().result;
    await waitFor(() => expect(reloaded.current.loaded).toBe(true));
    expect(reloaded.current.entries.map((e) => e.id)).toEqual([id]);
  });

  it('on a full disk gives up an old upscale result and keeps the item', async () => {
    const db = await openLoomDb();
    // A finished result's device copy whose queue item is gone: the first thing a full disk drops.
    await db.put('upscale-results', {
      id: 'old',
      userKey: USER,
      blob: new Blob([new Uint8Array(4096)]),
      type: 'image/png',
    });
    const { result } = renderQueue();
    await waitFor(() => expect(result.current.loaded).toBe(true));
    const restore = fillTheDisk('upscale-results');
    try {
      await act(() => result.current.add(ITEM));
    } finally {
      restore();
    }
    expect(result.current.entries).toHaveLength(1);
    expect(await readWorkshopQueue(USER)).toHaveLength(1);
    expect(await db.getAllKeys('upscale-results')).toEqual([]);
  });

  it('fails with the storage error and shows nothing when the device is full', async () => {
    const { result } = renderQueue();
    await waitFor(() => expect(result.current.loaded).toBe(true));
    const restore = fillTheDisk();
    try {
      let failure: unknown;
      await act(() => result.current.add(ITEM).catch((error: unknown) => void (failure = error)));
      expect(failure).toMatchObject({ name: 'QuotaExceededError' });
    } finally {
      restore();
    }
    expect(result.current.entries).toEqual([]);
    expect(await readWorkshopQueue(USER)).toEqual([]);
  });
});
