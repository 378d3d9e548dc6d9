// The stored_files table: one row per distinct file content (its sha256), with what serving it needs.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A stored content as the file store answers it: its row's facts. */
export interface StoredFile {
  /** sha256 of the bytes, hex: the same content is stored once. */
  id: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
}

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

/** The row's facts as a StoredFile, or undefined when no file with that id was stored. */
export async function readFileRow(db: FileDb, id: string): Promise<StoredFile | undefined> {
  const row = await db.selectFrom('stored_files').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return { id, mimeType: row.mime_type, size: Number(row.size_bytes), width: row.width, height: row.height };
}

/** Records a stored content once (a second put of the same bytes keeps the first row). */
export async function recordFile(db: FileDb, file: StoredFile, now: Date): Promise<void> {
  await db
    .insertInto('stored_files')
    .values({
      id: file.id,
      mime_type: file.mimeType,
      size_bytes: file.size,
      width: file.width,
      height: file.height,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
