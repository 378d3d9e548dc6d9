// Where generation uploads and results live, as one small interface: files on disk by content hash
// today (disk-file-store.ts), an S3-compatible bucket later behind the same calls.
import type { Readable } from 'node:stream';

export interface StoredFile {
  /** sha256 of the bytes, hex: the same content is stored once. */
  id: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
}

export interface FileStore {
  /** Stores the bytes (once per content) and answers their id. */
  put(data: Buffer, mimeType: string, dimensions?: { width: number; height: number }): Promise<StoredFile>;
  info(id: string): Promise<StoredFile | undefined>;
  read(id: string): Promise<Buffer | undefined>;
  /** A byte range (inclusive end) or the whole file, for serving downloads and video seeking. */
  open(id: string, range?: { start: number; end: number }): Promise<Readable | undefined>;
}
