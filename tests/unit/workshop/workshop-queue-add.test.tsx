// Adding to the workshop's waiting line on the device (IndexedDB through fake-indexeddb): an item
// shows only once it is kept, so a reload cannot lose it; when the device's storage is full and
// nothing can be freed, the add fails with the storage's error and nothing shows.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useWorkshopQueue } from '../../../src/features/workshop/hooks/use-workshop-queue';
import type { QueueEntry } from '../../../src/features/workshop/model/workshop-queue';
import { initI18n } from '../../../src/i18n/i18n';
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

/** The device's storage refuses every write to the workshop's line, as a full disk does. */
function fillTheDisk(): () => void {
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    if (this.name === 'queue') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return put.apply(this, args);
  };
  return () => {
    IDBObjectStore.prototype.put = put;
  };
}

beforeAll(() => initI18n());

afterEach(() => wipeWorkshopQueue(null));

describe('adding to the workshop queue', () => {
  it('shows an item once it is kept on the device, where a reload finds it', async () => {
    const { result } = renderQueue();
    await waitFor(() => expect(result.current.loaded).toBe(true));
    await act(() => result.current.add(ITEM));
    expect(result.current.entries).toHaveLength(1);
    expect(result.current.entries[0]).toMatchObject({ state: 'waiting', userKey: USER });
    const kept = await readWorkshopQueue<QueueEntry>(USER);
    expect(kept.map((e) => e.id)).toEqual([result.current.entries[0]!.id]);
    expect(kept[0]!.files[0]).toMatchObject({ name: 'linen.png', type: 'image/png' });
    expect(kept[0]!.files[0]!.blob).toBeDefined();
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
