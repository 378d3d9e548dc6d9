// One IndexedDB connection per database, opened on first use and shared: closed and forgotten
// when a newer version elsewhere asks (another tab after an update) or the browser ends it, and
// reopened on the next call. The app's main database (open-db.ts) and the small per-feature ones use it.
import { openDB, type DBSchema, type IDBPDatabase, type OpenDBCallbacks } from 'idb';

export interface CachedConnection<S extends DBSchema> {
  open(): Promise<IDBPDatabase<S>>;
  /** Closes the connection (if one was opened) and forgets it; the next open() reopens. */
  close(): Promise<void>;
}

export function cachedConnection<S extends DBSchema>(
  name: string,
  version: number,
  upgrade: NonNullable<OpenDBCallbacks<S>['upgrade']>,
): CachedConnection<S> {
  let connection: Promise<IDBPDatabase<S>> | null = null;
  const close = async (): Promise<void> => {
    const current = connection;
    connection = null;
    if (current) (await current.catch(() => null))?.close();
  };
  return {
    open() {
      connection ??= openDB<S>(name, version, {
        upgrade,
        blocking() {
          void close();
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
    close,
  };
}
