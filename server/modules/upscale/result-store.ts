// Upscaled images, one folder per result (upscale-results/<id>/<filename>), as a view of the blob
// store (disk under DATA_DIR, also a volume several hosts share, or the STORAGE_URL bucket). A result
// is staged first and published in one step, so whatever must be stored before it (a keyed
// request's replay record) is written in between: a crash leaves either both or no published
// result. Every id is random and nothing lives only in one process, so replicas serve each other's
// results. A result lives as long as its link; a periodic sweep removes older ones and the staged
// leftovers of a crash.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from '../../storage/blob-store.js';

const KIND = 'upscale-results';

export interface StoredResult {
  id: string;
  filename: string;
  size: number;
}

const ID = /^[A-Za-z0-9_-]{22}$/;

/** Whether an id and file name from a link can be ours (never a path out of a result's folder). */
export function isResultName(id: string, filename: string): boolean {
  return ID.test(id) && filename === path.basename(filename) && !filename.startsWith('.') && filename.length > 0;
}

export function newResultId(): string {
  return randomBytes(16).toString('base64url');
}

/** A safe file name from the client's: letters and digits of any script, dot, dash, underscore. */
export function resultFilename(original: string, modelName: string, format: string): string {
  const base = path
    .basename(original.replace(/\\/g, '/'))
    .replace(/\.[^.]*$/, '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}_-]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 80);
  return `${base || 'image'}_${modelName}.${format === 'jpeg' ? 'jpg' : format}`;
}

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/** The media type a result's file name says (its extension is the engine's output format). */
export function resultContentType(filename: string): string {
  return CONTENT_TYPES[filename.slice(filename.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

export interface StagedResult extends StoredResult {
  /** Makes the result visible under its id, in one step. */
  publish(): Promise<void>;
  /** Removes the staged copy (the job was cancelled before publishing). */
  discard(): Promise<void>;
}

export interface ResultStore {
  /** Where results live, for logs: a folder, or s3://bucket/prefix/upscale-results/. */
  readonly root: string;
  /** Keeps the result where no link reaches it yet. */
  stage(filename: string, data: Buffer): Promise<StagedResult>;
  /** Stages and publishes at once. */
  save(filename: string, data: Buffer): Promise<StoredResult>;
  /** Whether a result was published under this id (and not swept since). */
  has(id: string): Promise<boolean>;
  /** The published file's size, or undefined when the id or name is not one of ours. */
  size(id: string, filename: string): Promise<number | undefined>;
  /** The published file, or a byte range of it (inclusive end). */
  open(id: string, filename: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Removes results (and staged leftovers) written more than `ttlSeconds` before `nowMs`; returns how many. */
  sweep(ttlSeconds: number, nowMs: number): Promise<number>;
  /** Lets go of the blob store's connections. */
  close(): void;
}

/** A view of `blobs` (which it then owns and closes). */
export function createResultStore(blobs: BlobStore): ResultStore {
  const keyOf = (id: string, filename: string) => `${KIND}/${id}/${filename}`;
  const store: ResultStore = {
    root: blobs.locate(KIND),
    async stage(filename, data) {
      const id = newResultId();
      const staged = await blobs.stage(keyOf(id, filename), data, resultContentType(filename));
      return { id, filename, size: data.length, publish: staged.publish, discard: staged.discard };
    },
    async save(filename, data) {
      const staged = await store.stage(filename, data);
      await staged.publish();
      return { id: staged.id, filename, size: staged.size };
    },
    async has(id) {
      if (!ID.test(id)) return false;
      for await (const _ of blobs.list(`${KIND}/${id}/`)) return true;
      return false;
    },
    async size(id, filename) {
      if (!isResultName(id, filename)) return undefined;
      return blobs.size(keyOf(id, filename));
    },
    async open(id, filename, range) {
      if (!isResultName(id, filename)) return undefined;
      return blobs.open(keyOf(id, filename), range);
    },
    sweep(ttlSeconds, nowMs) {
      return blobs.removeOlder(`${KIND}/`, nowMs - ttlSeconds * 1000);
    },
    close() {
      blobs.close();
    },
  };
  return store;
}
