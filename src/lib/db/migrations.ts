// Versioned schema: migration N brings a database from version N-1 to N. Never edit a released
// step; append a new one (an installed tablet may open the app after several releases).
import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { LoomDbSchema } from './schema';

type UpgradeTx = IDBPTransaction<LoomDbSchema, StoreNames<LoomDbSchema>[], 'versionchange'>;
export type Migration = (db: IDBPDatabase<LoomDbSchema>, tx: UpgradeTx) => void;

export const MIGRATIONS: readonly Migration[] = [
  // 1: persisted query cache per user, and the offline outbox in the order changes were made.
  (db) => {
    db.createObjectStore('query-cache', { keyPath: 'userKey' });
    const outbox = db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
    outbox.createIndex('byUser', 'userKey');
    outbox.createIndex('byId', 'id', { unique: true });
  },
  // 2: media blobs (thumbnails, results) with a last-used index for LRU eviction under quota.
  (db) => {
    const media = db.createObjectStore('media', { keyPath: 'url' });
    media.createIndex('byLastUsed', 'lastUsed');
    media.createIndex('byUser', 'userKey');
  },
  // 3: image enhancement: source images, the upscale queue (resumed after a reload) and results.
  (db) => {
    for (const name of ['upscale-files', 'upscale-queue', 'upscale-results'] as const) {
      db.createObjectStore(name, { keyPath: 'id' }).createIndex('byUser', 'userKey');
    }
  },
];

export const DB_VERSION = MIGRATIONS.length;

export function runMigrations(db: IDBPDatabase<LoomDbSchema>, oldVersion: number, tx: UpgradeTx): void {
  for (let v = oldVersion; v < MIGRATIONS.length; v += 1) MIGRATIONS[v]?.(db, tx);
}
