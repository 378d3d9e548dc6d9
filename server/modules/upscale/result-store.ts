// Upscaled images on disk, one folder per result: DATA_DIR/upscale-results/<id>/<filename>.
// A result is written into DATA_DIR/upscale-staging first and appears in upscale-results by one
// rename, so whatever must be on disk before it (a keyed request's replay record) is written in
// between: a crash leaves either both or no published result. A result lives as long as its link;
// a periodic sweep removes folders older than that, and staged leftovers of a crash.
import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface StoredResult {
  id: string;
  filename: string;
  size: number;
}

const ID = /^[A-Za-z0-9_-]{22}$/;

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

export class ResultStore {
  readonly root: string;
  private readonly staging: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'upscale-results');
    this.staging = path.join(dataDir, 'upscale-staging');
  }

  /** Writes the result where no link reaches it yet. */
  async stage(filename: string, data: Buffer): Promise<StagedResult> {
    const id = randomBytes(16).toString('base64url');
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

  /** Whether a result was published under this id (and not swept since). */
  async has(id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    return (await stat(path.join(this.root, id)).catch(() => undefined))?.isDirectory() ?? false;
  }

  /** The stored file, or undefined when the id or name is not one of ours. */
  async open(id: string, filename: string): Promise<{ stream: ReadStream; size: number } | undefined> {
    if (!ID.test(id) || filename !== path.basename(filename) || filename.startsWith('.')) return undefined;
    const file = path.join(this.root, id, filename);
    try {
      const s = await stat(file);
      if (!s.isFile()) return undefined;
      return { stream: createReadStream(file), size: s.size };
    } catch {
      return undefined;
    }
  }

  /** Removes results (and staged leftovers) written more than `ttlSeconds` before `nowMs`; returns how many. */
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
