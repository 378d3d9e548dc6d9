// The shape of Loom Studio's IndexedDB database. Every store holds data of one signed-in user and
// says whose it is (userKey), so logout can wipe exactly that user and nothing leaks to the next.
import type { DBSchema } from 'idb';
import type { PersistedClient } from '@tanstack/react-query-persist-client';
import type { QueueItem, StoredFile, StoredResult } from '../../workers/upscale-queue/protocol';

export const DB_NAME = 'loom-studio';

/** One queued mutation made while offline (see lib/offline/outbox.ts). */
export interface OutboxRecord {
  /** Auto-increment: the order in which the user made the changes. */
  seq?: number;
  /** Also the Idempotency-Key header: a replay of the same item is applied once by the server. */
  id: string;
  userKey: string;
  kind: string;
  /** What the feature needs to send it again; prompt items hold the user's text here. */
  payload: unknown;
  createdAt: number;
  state: 'pending' | 'refused';
  /** The server's message when it refused the item on replay. */
  error?: string;
  attempts: number;
}

export interface QueryCacheRecord {
  userKey: string;
  client: PersistedClient;
  savedAt: number;
}

export interface LoomDbSchema extends DBSchema {
  'query-cache': { key: string; value: QueryCacheRecord };
  outbox: { key: number; value: OutboxRecord; indexes: { byUser: string; byId: string } };
  /** Image enhancement: source images, the batch upscale queue, results kept on the device. */
  'upscale-files': { key: string; value: StoredFile; indexes: { byUser: string } };
  'upscale-queue': { key: string; value: QueueItem; indexes: { byUser: string } };
  'upscale-results': { key: string; value: StoredResult; indexes: { byUser: string } };
}

export type StoreName = 'query-cache' | 'outbox' | 'upscale-files' | 'upscale-queue' | 'upscale-results';
/** Stores whose records carry a userKey (all of them, today). */
export const USER_STORES: readonly StoreName[] = [
  'query-cache',
  'outbox',
  'upscale-files',
  'upscale-queue',
  'upscale-results',
];
