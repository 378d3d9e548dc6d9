// FileStore on the local disk: DATA_DIR/files/<first two hex digits>/<sha256>, one row per content
// in stored_files for its type and size. A file is written to a temporary name and renamed, so a
// crash never leaves a half-written file under a content hash; the row comes after the file.
// Nothing lives only in this process: several processes (replicas, workers) may share DATA_DIR on
// a network volume, each writing under its own temporary name, and whichever rename lands last
// leaves the same bytes.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_HASH, contentHash } from './content-hash.js';
import { readFileRow, recordFile, type FileDb } from './file-table.js';
import type { FileStore, StoredFile } from './file-store.js';

export function createDiskFileStore(db: FileDb, dataDir: string, now: () => Date): FileStore {
  const root = path.join(dataDir, 'files');
  const fileOf = (id: string) => path.join(root, id.slice(0, 2), id);

  const info = async (id: string): Promise<StoredFile | undefined> => {
    if (!CONTENT_HASH.test(id)) return undefined;
    return readFileRow(db, id);
  };

  return {
    async put(data, mimeType, dimensions) {
      const id = contentHash(data);
      const file = fileOf(id);
      const present = await stat(file).then(
        (s) => s.size === data.length,
        () => false,
      );
      if (!present) {
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
        try {
          await writeFile(temp, data, { mode: 0o600 });
          await rename(temp, file);
        } catch (error) {
          await rm(temp, { force: true });
          throw error;
        }
      }
      const stored: StoredFile = {
        id,
        mimeType,
        size: data.length,
        width: dimensions?.width ?? null,
        height: dimensions?.height ?? null,
      };
      await recordFile(db, stored, now());
      return stored;
    },
    info,
    async read(id) {
      if (!CONTENT_HASH.test(id)) return undefined;
      return readFile(fileOf(id)).catch(() => undefined);
    },
    async open(id, range) {
      if (!CONTENT_HASH.test(id)) return undefined;
      const file = fileOf(id);
      const exists = await stat(file).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!exists) return undefined;
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
  };
}
