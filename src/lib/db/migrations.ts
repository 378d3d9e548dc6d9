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
  // 2: media blobs with a last-used index (never written: media lives in the service worker's
  // cache and the upscale stores; removed by 4). Untyped: the store is gone from the schema.
  (db) => {
    const media = (db as unknown as IDBPDatabase).createObjectStore('media', { keyPath: 'url' });
    media.createIndex('byLastUsed', 'lastUsed');
    media.createIndex('byUser', 'userKey');
  },
  // 3: image enhancement: source images, the upscale queue (resumed after a reload) and results.
  (db) => {
    for (const name of ['upscale-files', 'upscale-queue', 'upscale-results'] as const) {
      db.createObjectStore(name, { keyPath: 'id' }).createIndex('byUser', 'userKey');
    }
  },
  // 4: drop the unused media store of 2.
  (db) => {
    (db as unknown as IDBPDatabase).deleteObjectStore('media');
  },
];

export const DB_VERSION = MIGRATIONS.length;

export function runMigrations(db: IDBPDatabase<LoomDbSchema>, oldVersion: number, tx: UpgradeTx): void {
  for (let v = oldVersion; v < MIGRATIONS.length; v += 1) MIGRATIONS[v]?.(db, tx);
}
