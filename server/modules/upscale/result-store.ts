// Upscaled images on disk, one folder per result: DATA_DIR/upscale-results/<id>/<filename>.
// A result lives as long as its link; a periodic sweep removes folders older than that.
import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
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

export class ResultStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'upscale-results');
  }

  async save(filename: string, data: Buffer): Promise<StoredResult> {
    const id = randomBytes(16).toString('base64url');
    const dir = path.join(this.root, id);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, filename), data);
    return { id, filename, size: data.length };
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

  /** Removes results written more than `ttlSeconds` before `nowMs`; returns how many. */
  async sweep(ttlSeconds: number, nowMs: number): Promise<number> {
    let removed = 0;
    const entries = await readdir(this.root).catch(() => [] as string[]);
    for (const id of entries) {
      const dir = path.join(this.root, id);
      const s = await stat(dir).catch(() => undefined);
      if (!s || s.mtimeMs + ttlSeconds * 1000 > nowMs) continue;
      await rm(dir, { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}
