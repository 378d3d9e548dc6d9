// Where the server keeps bytes, as one small interface: a folder under DATA_DIR (disk-blob-store.ts,
// also a volume several hosts share) or the STORAGE_URL bucket (s3-blob-store.ts), chosen once in
// open-blob-store.ts. Each kind of bytes has its own first key segment (`files/`, `upscale-results/`,
// `upscale-inputs/`); the stores of those kinds are thin views that name their keys and check them.
//
// A write is staged, then published in one step (a rename on disk, the one PutObject in a bucket),
// so a reader sees the whole bytes or nothing, and whatever must be stored before them (a replay
// record) can be written in between. Nothing lives only in one process: every process on the same
// folder or bucket reads what another wrote.
import type { Readable } from 'node:stream';

/** Bytes start to end, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StagedBlob {
  /** Makes the bytes visible under their key, in one step. */
  publish(): Promise<void>;
  /** Forgets bytes that were never published. */
  discard(): Promise<void>;
}

export interface ListedBlob {
  key: string;
  /** When it was written (ms since the epoch). */
  writtenAtMs: number;
}

export interface BlobStore {
  /** Where keys under a kind's segment live, for logs: a folder, or s3://bucket/prefix/kind/. */
  locate(kind: string): string;
  /** Keeps the bytes where no reader sees them until publish(). */
  stage(key: string, data: Buffer, contentType?: string): Promise<StagedBlob>;
  /** Stages and publishes at once. */
  put(key: string, data: Buffer, contentType?: string): Promise<void>;
  /** The published bytes' length, or undefined when there are none under the key. */
  size(key: string): Promise<number | undefined>;
  read(key: string): Promise<Buffer | undefined>;
  /** The published bytes, or a range of them. */
  open(key: string, range?: ByteRange): Promise<Readable | undefined>;
  remove(key: string): Promise<void>;
  /** The published keys under a prefix (ending in '/'). */
  list(prefix: string): AsyncIterable<ListedBlob>;
  /**
   * Removes what was written under a prefix before `beforeMs`, published or left staged by a crash,
   * except the published keys `keep` holds on to; answers how many published ones it removed.
   */
  removeOlder(prefix: string, beforeMs: number, keep?: (key: string) => boolean): Promise<number>;
  /** Lets go of connections (the S3 client's); the disk has none. */
  close(): void;
}

/**
 * Keys are relative paths of plain segments: never absolute, never `.` or `..`, never a backslash,
 * so no key names anything outside the store. Views check their ids more strictly still.
 */
export function isBlobKey(key: string): boolean {
  if (key.length === 0 || key.length > 1024 || key.includes('\\') || key.includes('\0')) return false;
  return key.split('/').every((segment) => segment.length > 0 && segment !== '.' && segment !== '..');
}
