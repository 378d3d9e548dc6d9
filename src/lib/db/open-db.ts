// One shared connection per page. Another tab upgrading the schema asks us to close: we do, and
// the next call reopens at the new version instead of blocking that tab forever.
import type { IDBPDatabase } from 'idb';
import { cachedConnection } from './cached-connection';
import { DB_VERSION, runMigrations } from './migrations';
import { DB_NAME, type LoomDbSchema } from './schema';

export type LoomDb = IDBPDatabase<LoomDbSchema>;

const connection = cachedConnection<LoomDbSchema>(DB_NAME, DB_VERSION, (db, oldVersion, _newVersion, tx) => {
  runMigrations(db, oldVersion, tx);
});

export function openLoomDb(): Promise<LoomDb> {
  return connection.open();
}

export function closeLoomDb(): Promise<void> {
  return connection.close();
}
