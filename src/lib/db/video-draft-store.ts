// The video workflow's draft on the device: the fabric form, the chosen files (as Blobs), the
// selections, the step and the ids of work running on the server, so a reload, a crash or a
// sign-in expiry loses nothing. Its own small database (like the workshop's queue): one record per
// user, wiped on logout and whenever another user opens the page on this device.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { registerLogoutCleanup } from '../session/logout-cleanup';

export const VIDEO_DRAFT_DB_NAME = 'loom-studio-video';

export interface VideoDraftRecord {
  userKey: string;
  savedAt: number;
}

interface VideoDraftDbSchema extends DBSchema {
  drafts: { key: string; value: VideoDraftRecord };
}

let connection: Promise<IDBPDatabase<VideoDraftDbSchema>> | null = null;

function open(): Promise<IDBPDatabase<VideoDraftDbSchema>> {
  connection ??= openDB<VideoDraftDbSchema>(VIDEO_DRAFT_DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('drafts', { keyPath: 'userKey' });
    },
    blocking() {
      void connection?.then((db) => db.close());
      connection = null;
    },
    terminated() {
      connection = null;
    },
  }).catch((error: unknown) => {
    connection = null;
    throw error;
  });
  return connection;
}

export async function readVideoDraft<T extends VideoDraftRecord>(userKey: string): Promise<T | undefined> {
  const db = await open();
  return (await db.get('drafts', userKey)) as T | undefined;
}

export async function writeVideoDraft<T extends VideoDraftRecord>(record: T): Promise<void> {
  const db = await open();
  await db.put('drafts', record);
}

export async function deleteVideoDraft(userKey: string): Promise<void> {
  const db = await open();
  await db.delete('drafts', userKey);
}

/** Every draft but this user's (another account on a shared tablet). */
export async function wipeOtherVideoDrafts(keep: string): Promise<void> {
  const db = await open();
  for (const key of await db.getAllKeys('drafts')) if (key !== keep) await db.delete('drafts', key);
}

export async function wipeAllVideoDrafts(): Promise<void> {
  const db = await open();
  await db.clear('drafts');
}

registerLogoutCleanup(() => wipeAllVideoDrafts().catch(() => undefined));
