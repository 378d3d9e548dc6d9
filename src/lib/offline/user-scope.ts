// Binds offline data to the signed-in user. Sign-in (or a reload) restores that user's persisted
// queries and replays their outbox. Logout wipes the user in the order that leaves nothing behind:
// stop the outbox (a replay in flight must not write its item back), stop saving, cancel queries,
// clear the cache, remove the persisted client, wipe IndexedDB, delete user-scoped
// service-worker caches and Workbox's last-used records of them (they list the media URLs). An
// expired session only clears memory (the same person usually signs in again and their queued
// edits must survive); a different account signing in wipes everything of the previous one first.
import type { QueryClient } from '@tanstack/react-query';
import { forgetUserCaches } from '../db/media-cache';
import { wipeOtherUsersData, wipeUserData } from '../db/wipe-user';
import { startQueryPersistence, type ActivePersistence } from '../query/persistence';
import { registerLogoutCleanup } from '../session/logout-cleanup';
import { getSession, subscribeSession } from '../session/session-store';
import { USER_CACHE_PREFIX } from './cache-names';
import { resumeOutbox, stopOutbox, syncOutbox } from './app-outbox';
import { checkReachability, getOnlineStatus, onReconnect } from './online-status';
import { currentUserKey } from './user-key';

/** Whose data the device's caches hold; survives an expired session, not a logout. */
const OWNER_KEY = 'loom.offlineOwner';

let active: ActivePersistence | null = null;
let chain: Promise<void> = Promise.resolve();

function serially(step: () => Promise<void>): Promise<void> {
  chain = chain.then(step, step);
  return chain;
}

function deleteUserCaches(): Promise<void> {
  return forgetUserCaches(typeof caches === 'undefined' ? undefined : caches, USER_CACHE_PREFIX);
}

async function deactivate(queryClient: QueryClient): Promise<void> {
  const persistence = active;
  active = null;
  persistence?.stop();
  await queryClient.cancelQueries();
  queryClient.clear();
}

export async function wipeUser(queryClient: QueryClient, userKey: string | null): Promise<void> {
  await stopOutbox();
  const persistence = active;
  await deactivate(queryClient);
  await persistence?.persister.removeClient();
  if (userKey) await wipeUserData(userKey);
  await deleteUserCaches();
  localStorage.removeItem(OWNER_KEY);
}

async function activate(queryClient: QueryClient, userKey: string): Promise<void> {
  if (localStorage.getItem(OWNER_KEY) !== userKey) {
    await wipeOtherUsersData(userKey);
    await deleteUserCaches();
    localStorage.setItem(OWNER_KEY, userKey);
  }
  active = await startQueryPersistence(queryClient, userKey);
  resumeOutbox();
  void replay(userKey);
}

async function replay(userKey: string): Promise<void> {
  await checkReachability();
  if (getOnlineStatus().online) await syncOutbox(userKey);
}

/**
 * Call once before the first render: resolves after the signed-in user's cache is restored, so
 * offline pages paint with data at once. Keeps following the session afterwards.
 */
export async function bindOfflineDataToSession(queryClient: QueryClient): Promise<void> {
  let currentKey = currentUserKey(getSession());
  // The last signed-in user, still known after their session ended, for the logout wipe.
  let lastKey = currentKey;
  if (currentKey) await serially(() => activate(queryClient, currentKey as string));

  subscribeSession(() => {
    const nextKey = currentUserKey(getSession());
    if (nextKey === currentKey) return;
    currentKey = nextKey;
    if (nextKey) lastKey = nextKey;
    void serially(async () => {
      await deactivate(queryClient);
      if (nextKey) await activate(queryClient, nextKey);
    });
  });

  registerLogoutCleanup(() =>
    serially(async () => {
      await wipeUser(queryClient, lastKey);
      lastKey = null;
    }),
  );

  onReconnect(() => {
    const key = currentUserKey(getSession());
    if (key) void syncOutbox(key);
  });
}
