// Where generation uploads and results live, as one small interface: files on disk by content hash
// (disk-file-store.ts) or in an S3-compatible bucket (s3-file-store.ts), chosen by STORAGE_URL.
import type { Readable } from 'node:stream';
import type { AppConfig } from '../config.js';
import { createDiskFileStore } from './disk-file-store.js';
import type { FileDb } from './file-table.js';
import { openS3Bucket } from './s3-bucket.js';
import { createS3FileStore } from './s3-file-store.js';

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
  /** Lets go of connections (the S3 client's); the disk store has none. */
  close?(): void;
}

/** The store STORAGE_URL names: DATA_DIR's disk when it is absent, else its bucket. */
export function createFileStore(db: FileDb, config: Pick<AppConfig, 'dataDir' | 'storage'>, now: () => Date): FileStore {
  return config.storage.kind === 's3'
    ? createS3FileStore(db, openS3Bucket(config.storage), now)
    : createDiskFileStore(db, config.dataDir, now);
}
