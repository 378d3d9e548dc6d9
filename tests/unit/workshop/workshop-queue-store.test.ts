// The device queue over IndexedDB (fake-indexeddb): per user, in the order added, Blobs kept,
// wiped on logout with the rest of the user's data, other users' items dropped on an account switch.
import { describe, expect, it } from 'vitest';
import { wipeOtherUsersData, wipeUserData } from '../../../src/lib/db/wipe-user';
import {
  deleteWorkshopQueueRecord,
  putWorkshopQueueRecord,
  readWorkshopQueue,
  wipeWorkshopQueue,
  type WorkshopQueueRecord,
} from '../../../src/lib/db/workshop-queue-store';

interface Rec extends WorkshopQueueRecord {
  text: string;
  blob?: Blob;
}

describe('workshop queue store', () => {
  it('keeps each user’s items in order, with their files', async () => {
    await wipeWorkshopQueue(null);
    await putWorkshopQueueRecord<Rec>({ id: 'b', userKey: 'id:1', createdAt: 2, text: 'second' });
    await putWorkshopQueueRecord<Rec>({ id: 'a', userKey: 'id:1', createdAt: 1, text: 'first', blob: new Blob(['x']) });
    await putWorkshopQueueRecord<Rec>({ id: 'z', userKey: 'id:2', createdAt: 0, text: 'other' });
    const mine = await readWorkshopQueue<Rec>('id:1');
    expect(mine.map((r) => r.text)).toEqual(['first', 'second']);
    expect(mine[0]!.blob).toBeDefined();
    await deleteWorkshopQueueRecord('b');
    expect((await readWorkshopQueue<Rec>('id:1')).map((r) => r.id)).toEqual(['a']);
  });

  it('is wiped with the user on logout and for another account', async () => {
    await wipeWorkshopQueue(null);
    await putWorkshopQueueRecord<Rec>({ id: 'a', userKey: 'id:1', createdAt: 1, text: 'mine' });
    await putWorkshopQueueRecord<Rec>({ id: 'b', userKey: 'id:2', createdAt: 1, text: 'theirs' });
    await wipeOtherUsersData('id:2');
    expect(await readWorkshopQueue('id:1')).toEqual([]);
    expect(await readWorkshopQueue('id:2')).toHaveLength(1);
    await wipeUserData('id:2');
    expect(await readWorkshopQueue('id:2')).toEqual([]);
  });
});
