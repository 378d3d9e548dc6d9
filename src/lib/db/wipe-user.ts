// Removes every record of one user from every store (logout, account switch).
import { openLoomDb } from './open-db';
import { USER_STORES } from './schema';
import { deleteVideoDraft, wipeAllVideoDrafts, wipeOtherVideoDrafts } from './video-draft-store';
import { wipeOtherWorkshopQueues, wipeWorkshopQueue } from './workshop-queue-store';

export async function wipeUserData(userKey: string): Promise<void> {
  const db = await openLoomDb();
  const tx = db.transaction([...USER_STORES], 'readwrite');
  await tx.objectStore('query-cache').delete(userKey);
  for (const seq of await tx.objectStore('outbox').index('byUser').getAllKeys(userKey))
    await tx.objectStore('outbox').delete(seq);
  for (const name of ['upscale-files', 'upscale-queue', 'upscale-results'] as const) {
    for (const id of await tx.objectStore(name).index('byUser').getAllKeys(userKey))
      await tx.objectStore(name).delete(id);
  }
  await tx.done;
  await wipeWorkshopQueue(userKey);
  await deleteVideoDraft(userKey).catch(() => undefined);
}

/** Everything, whoever it belonged to: used when the signed-in user is not known any more. */
export async function wipeAllUserData(): Promise<void> {
  const db = await openLoomDb();
  const tx = db.transaction([...USER_STORES], 'readwrite');
  await Promise.all(USER_STORES.map((name) => tx.objectStore(name).clear()));
  await tx.done;
  await wipeWorkshopQueue(null);
  await wipeAllVideoDrafts().catch(() => undefined);
}

/** Every user's data except this one's (a different account signed in on a shared device). */
export async function wipeOtherUsersData(keep: string): Promise<number> {
  const db = await openLoomDb();
  const tx = db.transaction([...USER_STORES], 'readwrite');
  let removed = 0;
  for (const name of USER_STORES) {
    let cursor = await tx.objectStore(name).openCursor();
    while (cursor) {
      if (cursor.value.userKey !== keep) {
        await cursor.delete();
        removed += 1;
      }
      cursor = await cursor.continue();
    }
  }
  await tx.done;
  await wipeOtherWorkshopQueues(keep);
  await wipeOtherVideoDrafts(keep).catch(() => undefined);
  return removed;
}
