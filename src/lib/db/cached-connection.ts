// One IndexedDB connection per database, opened on first use and shared: closed and forgotten
// when a newer version elsewhere asks (another tab after an update) or the browser ends it, and
// reopened on the next call. The small per-feature databases use it.
import { openDB, type DBSchema, type IDBPDatabase, type OpenDBCallbacks } from 'idb';

export interface CachedConnection<S extends DBSchema> {
  open(): Promise<IDBPDatabase<S>>;
}

export function cachedConnection<S extends DBSchema>(
  name: string,
  version: number,
  upgrade: NonNullable<OpenDBCallbacks<S>['upgrade']>,
): CachedConnection<S> {
  let connection: Promise<IDBPDatabase<S>> | null = null;
  return {
    open() {
      connection ??= openDB<S>(name, version, {
        upgrade,
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
    },
  };
}
