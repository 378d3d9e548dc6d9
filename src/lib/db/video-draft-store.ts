// The video workflow's draft on the device: the fabric form, the chosen files (as Blobs), the
// selections, the step and the ids of work running on the server, so a reload, a crash or a
// sign-in expiry loses nothing. Its own small database (like the workshop's queue): one record per
// user, wiped on logout and whenever another user opens the page on this device.
import type { DBSchema } from 'idb';
import { cachedConnection } from './cached-connection';
import { registerLogoutCleanup } from '../session/logout-cleanup';

export const VIDEO_DRAFT_DB_NAME = 'loom-studio-video';

export interface VideoDraftRecord {
  userKey: string;
  savedAt: number;
}

interface VideoDraftDbSchema extends DBSchema {
  drafts: { key: string; value: VideoDraftRecord };
}

const connection = cachedConnection<VideoDraftDbSchema>(VIDEO_DRAFT_DB_NAME, 1, (db) => {
  db.createObjectStore('drafts', { keyPath: 'userKey' });
});
const open = () => connection.open();

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
