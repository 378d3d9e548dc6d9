// The stored_files table: one row per distinct file content (its sha256), with what serving it needs.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface StoredFilesTable {
  id: string;
  mime_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  created_at: string;
}

export type FileTables = { stored_files: StoredFilesTable };
export type FileDb = Kysely<Database & FileTables>;
