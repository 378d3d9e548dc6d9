// The workshop's waiting line on the device: items added but not yet sent, with their files, so
// a reload or a lost connection sends them later instead of losing them. Its own small database
// (not a store of loom-studio): it holds only this queue and never needs the shared migrations.
// Every record says whose it is; logout wipes it (registered in wipe-user.ts).
import type { DBSchema } from 'idb';
import { cachedConnection } from './cached-connection';

export const WORKSHOP_DB_NAME = 'loom-studio-workshop';

/** Shapes kept by the feature; stored as given (Blob values survive structured cloning). */
export interface WorkshopQueueRecord {
  id: string;
  userKey: string;
  createdAt: number;
}

interface WorkshopDbSchema extends DBSchema {
  queue: { key: string; value: WorkshopQueueRecord; indexes: { byUser: string } };
}

const connection = cachedConnection<WorkshopDbSchema>(WORKSHOP_DB_NAME, 1, (db) => {
  db.createObjectStore('queue', { keyPath: 'id' }).createIndex('byUser', 'userKey');
});
const open = () => connection.open();

export async function readWorkshopQueue<T extends WorkshopQueueRecord>(userKey: string): Promise<T[]> {
  const db = await open();
  const all = (await db.getAllFromIndex('queue', 'byUser', userKey)) as T[];
  return all.sort((a, b) => a.createdAt - b.createdAt);
}

export async function putWorkshopQueueRecord<T extends WorkshopQueueRecord>(record: T): Promise<void> {
  const db = await open();
  await db.put('queue', record);
}

export async function deleteWorkshopQueueRecord(id: string): Promise<void> {
  const db = await open();
  await db.delete('queue', id);
}

/** Logout: this user's waiting items, or everyone's when the user is not known. */
export async function wipeWorkshopQueue(userKey: string | null): Promise<void> {
  const db = await open();
  if (!userKey) {
    await db.clear('queue');
    return;
  }
  const tx = db.transaction('queue', 'readwrite');
  for (const id of await tx.store.index('byUser').getAllKeys(userKey)) await tx.store.delete(id);
  await tx.done;
}

/** Every other user's waiting items (a different account signed in on a shared tablet). */
export async function wipeOtherWorkshopQueues(keep: string): Promise<void> {
  const db = await open();
  const tx = db.transaction('queue', 'readwrite');
  let cursor = await tx.store.openCursor();
  while (cursor) {
    if (cursor.value.userKey !== keep) await cursor.delete();
    cursor = await cursor.continue();
  }
  await tx.done;
}
