// One shared connection per page. Another tab upgrading the schema asks us to close: we do, and
// the next call reopens at the new version instead of blocking that tab forever.
import { openDB, type IDBPDatabase } from 'idb';
import { DB_VERSION, runMigrations } from './migrations';
import { DB_NAME, type LoomDbSchema } from './schema';

export type LoomDb = IDBPDatabase<LoomDbSchema>;

let connection: Promise<LoomDb> | null = null;

export function openLoomDb(): Promise<LoomDb> {
  connection ??= openDB<LoomDbSchema>(DB_NAME, DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, tx) {
      runMigrations(db, oldVersion, tx);
    },
    blocking() {
      void closeLoomDb();
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

export async function closeLoomDb(): Promise<void> {
  const current = connection;
  connection = null;
  if (current) (await current.catch(() => null))?.close();
}
