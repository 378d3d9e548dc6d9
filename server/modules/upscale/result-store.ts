// Upscaled images, one folder per result (<id>/<filename>), behind a small interface: on disk under
// DATA_DIR (DiskResultStore, also a volume several hosts share) or in the STORAGE_URL bucket
// (S3ResultStore). Either way a result is staged first and published in one step, so whatever must
// be stored before it (a keyed request's replay record) is written in between: a crash leaves
// either both or no published result. A result lives as long as its link; a periodic sweep removes
// older ones.
//
// On disk a result is written into DATA_DIR/upscale-staging and appears in upscale-results by one
// rename; the sweep also removes staged leftovers of a crash. Every name is random and nothing
// lives only in this process, so replicas sharing DATA_DIR on a network volume serve each other's
// results.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { StorageConfig } from '../../config.js';
import { openS3Bucket } from '../../storage/s3-bucket.js';
import { S3ResultStore } from './s3-result-store.js';

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

export interface StagedResult extends StoredResult {
  /** Makes the result visible under its id (one rename). */
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
  open(id: string, filename: string, range?: { start: number; end: number }): Promise<Readable | undefined>;
  /** Removes results (and staged leftovers) written more than `ttlSeconds` before `nowMs`; returns how many. */
  sweep(ttlSeconds: number, nowMs: number): Promise<number>;
  /** Lets go of connections (the S3 client's). */
  close?(): void;
}

/** The store STORAGE_URL names: DATA_DIR's disk when it is absent, else its bucket. */
export function createResultStore(storage: StorageConfig, dataDir: string): ResultStore {
  return storage.kind === 's3' ? new S3ResultStore(openS3Bucket(storage)) : new DiskResultStore(dataDir);
}

export class DiskResultStore implements ResultStore {
  readonly root: string;
  private readonly staging: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'upscale-results');
    this.staging = path.join(dataDir, 'upscale-staging');
  }

  async stage(filename: string, data: Buffer): Promise<StagedResult> {
    const id = newResultId();
    const staged = path.join(this.staging, id);
    await mkdir(staged, { recursive: true });
    await writeFile(path.join(staged, filename), data);
    return {
      id,
      filename,
      size: data.length,
      publish: async () => {
        await mkdir(this.root, { recursive: true });
        await rename(staged, path.join(this.root, id));
      },
      discard: () => rm(staged, { recursive: true, force: true }),
    };
  }

  async save(filename: string, data: Buffer): Promise<StoredResult> {
    const staged = await this.stage(filename, data);
    await staged.publish();
    return { id: staged.id, filename, size: staged.size };
  }

  async has(id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    return (await stat(path.join(this.root, id)).catch(() => undefined))?.isDirectory() ?? false;
  }

  async size(id: string, filename: string): Promise<number | undefined> {
    if (!isResultName(id, filename)) return undefined;
    const s = await stat(path.join(this.root, id, filename)).catch(() => undefined);
    return s?.isFile() ? s.size : undefined;
  }

  async open(id: string, filename: string, range?: { start: number; end: number }): Promise<Readable | undefined> {
    if ((await this.size(id, filename)) === undefined) return undefined;
    return createReadStream(path.join(this.root, id, filename), range ? { start: range.start, end: range.end } : {});
  }

  async sweep(ttlSeconds: number, nowMs: number): Promise<number> {
    return (await this.sweepDir(this.root, ttlSeconds, nowMs)) + (await this.sweepDir(this.staging, ttlSeconds, nowMs));
  }

  private async sweepDir(root: string, ttlSeconds: number, nowMs: number): Promise<number> {
    let removed = 0;
    const entries = await readdir(root).catch(() => [] as string[]);
    for (const id of entries) {
      const dir = path.join(root, id);
      const s = await stat(dir).catch(() => undefined);
      if (!s || s.mtimeMs + ttlSeconds * 1000 > nowMs) continue;
      await rm(dir, { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}
