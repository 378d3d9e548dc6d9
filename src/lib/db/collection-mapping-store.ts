// The column mappings a person confirmed, remembered per user and per sheet layout (its header
// signature), so the next sheet with the same headers opens mapped as they left it. Its own small
// database, like the video draft's; wiped on logout.
import type { DBSchema } from 'idb';
import { cachedConnection } from './cached-connection';
import { registerLogoutCleanup } from '../session/logout-cleanup';

export const COLLECTION_MAPPING_DB_NAME = 'loom-studio-collections';

export interface StoredColumnMapping {
  userKey: string;
  signature: string;
  /** One entry per column: a sheet field's name or null. */
  fields: (string | null)[];
  savedAt: number;
}

interface MappingDbSchema extends DBSchema {
  mappings: { key: [string, string]; value: StoredColumnMapping };
}

const connection = cachedConnection<MappingDbSchema>(COLLECTION_MAPPING_DB_NAME, 1, (db) => {
  db.createObjectStore('mappings', { keyPath: ['userKey', 'signature'] });
});

export async function readColumnMapping(
  userKey: string,
  signature: string,
): Promise<StoredColumnMapping | undefined> {
  const db = await connection.open();
  return db.get('mappings', [userKey, signature]);
}

export async function writeColumnMapping(
  userKey: string,
  signature: string,
  fields: readonly (string | null)[],
): Promise<void> {
  const db = await connection.open();
  await db.put('mappings', { userKey, signature, fields: [...fields], savedAt: Date.now() });
}

export async function wipeAllColumnMappings(): Promise<void> {
  const db = await connection.open();
  await db.clear('mappings');
}

registerLogoutCleanup(() => wipeAllColumnMappings().catch(() => undefined));
