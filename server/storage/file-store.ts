// Generation uploads and results by content hash: the bytes under files/<first two hex digits>/<sha256>
// in the blob store (disk or bucket), one row per content in stored_files for its type, size and
// dimensions (the row answers info() without touching the bytes). The row comes after the bytes, so
// a row always names bytes any process can read.
import type { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from './blob-store.js';
import { CONTENT_HASH, contentHash } from './content-hash.js';
import { readFileRow, recordFile, type FileDb, type StoredFile } from './file-table.js';

export type { StoredFile } from './file-table.js';

export interface FileStore {
  /** Stores the bytes (once per content) and answers their id. */
  put(data: Buffer, mimeType: string, dimensions?: { width: number; height: number }): Promise<StoredFile>;
  info(id: string): Promise<StoredFile | undefined>;
  read(id: string): Promise<Buffer | undefined>;
  /** A byte range (inclusive end) or the whole file, for serving downloads and video seeking. */
  open(id: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Lets go of the blob store's connections. */
  close(): void;
}

/** A view of `blobs` (which it then owns and closes). */
export function createFileStore(db: FileDb, blobs: BlobStore, now: () => Date): FileStore {
  const keyOf = (id: string) => `files/${id.slice(0, 2)}/${id}`;
  return {
    async put(data, mimeType, dimensions) {
      const id = contentHash(data);
      const key = keyOf(id);
      // Content-addressed: bytes of the right length under this key are these bytes. A length the
      // store cannot tell (a bucket without s3:ListBucket answers a missing key with 403) means
      // writing them: the write says whether writing is really refused.
      const present = (await blobs.size(key).catch(() => undefined)) === data.length;
      if (!present) await blobs.put(key, data, mimeType);
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
    async info(id) {
      if (!CONTENT_HASH.test(id)) return undefined;
      return readFileRow(db, id);
    },
    async read(id) {
      if (!CONTENT_HASH.test(id)) return undefined;
      return blobs.read(keyOf(id));
    },
    async open(id, range) {
      if (!CONTENT_HASH.test(id)) return undefined;
      return blobs.open(keyOf(id), range);
    },
    close() {
      blobs.close();
    },
  };
}
