// BlobStore on the local disk: DATA_DIR/<key>. A write goes to a temporary name beside its key and
// is renamed onto it when published, so a crash never leaves half-written bytes under a key; such
// leftovers are removed with the old entries of their kind (removeOlder). Folders are the owner's
// only (0700, files 0600). Several processes (replicas, workers) may share DATA_DIR on a network
// volume: each writes under its own temporary name, and whichever rename lands last leaves the
// same bytes.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isBlobKey, type BlobStore, type ListedBlob } from './blob-store.js';

/** A staged write: the key's file name, a random part, and this ending. */
const STAGED = /\.[0-9a-f]{12}\.tmp$/;

interface FoundFile {
  file: string;
  mtimeMs: number;
  staged: boolean;
}

/** Every file below `dir`, deepest folders first within each folder's turn. */
async function* filesBelow(dir: string): AsyncGenerator<FoundFile> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesBelow(file);
    else if (entry.isFile()) {
      const s = await stat(file).catch(() => undefined);
      if (s) yield { file, mtimeMs: s.mtimeMs, staged: STAGED.test(entry.name) };
    }
  }
}

/** Removes `dir` and the folders above it, up to and without `stop`, while each is empty. */
async function removeEmptyFolders(dir: string, stop: string): Promise<void> {
  for (let d = dir; d !== stop && d.startsWith(stop + path.sep); d = path.dirname(d)) {
    if (!(await rmdir(d).then(() => true, () => false))) return;
  }
}

export function createDiskBlobStore(dataDir: string): BlobStore {
  const fileOf = (key: string) => path.join(dataDir, key);
  const keyOf = (file: string) => path.relative(dataDir, file).split(path.sep).join('/');
  const prefixDir = (prefix: string) => {
    const trimmed = prefix.replace(/\/+$/, '');
    if (!isBlobKey(trimmed)) throw new Error(`not a key prefix: ${prefix}`);
    return fileOf(trimmed);
  };
  const publishedSize = async (key: string): Promise<number | undefined> => {
    if (!isBlobKey(key)) return undefined;
    const s = await stat(fileOf(key)).catch(() => undefined);
    return s?.isFile() ? s.size : undefined;
  };

  const store: BlobStore = {
    locate: (kind) => path.join(dataDir, kind),

    async stage(key, data) {
      if (!isBlobKey(key)) throw new Error(`not a blob key: ${key}`);
      const file = fileOf(key);
      // The first folder this write made (a result's own), if any: a discarded write takes it away again.
      const made = await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      const discard = async () => {
        await rm(temp, { force: true });
        if (made) await removeEmptyFolders(path.dirname(file), path.dirname(made));
      };
      try {
        await writeFile(temp, data, { mode: 0o600 });
      } catch (error) {
        await discard();
        throw error;
      }
      return { publish: () => rename(temp, file), discard };
    },

    async put(key, data) {
      const staged = await store.stage(key, data);
      try {
        await staged.publish();
      } catch (error) {
        await staged.discard();
        throw error;
      }
    },

    size: publishedSize,

    async read(key) {
      if (!isBlobKey(key)) return undefined;
      return readFile(fileOf(key)).catch(() => undefined);
    },

    async open(key, range) {
      if ((await publishedSize(key)) === undefined) return undefined;
      return createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },

    async remove(key) {
      if (isBlobKey(key)) await rm(fileOf(key), { force: true });
    },

    async *list(prefix): AsyncGenerator<ListedBlob> {
      for await (const found of filesBelow(prefixDir(prefix))) {
        if (!found.staged) yield { key: keyOf(found.file), writtenAtMs: found.mtimeMs };
      }
    },

    async removeOlder(prefix, beforeMs, keep) {
      const root = prefixDir(prefix);
      let removed = 0;
      const emptied = new Set<string>();
      for await (const found of filesBelow(root)) {
        if (found.mtimeMs >= beforeMs) continue;
        if (!found.staged && keep?.(keyOf(found.file))) continue;
        await rm(found.file, { force: true });
        if (!found.staged) removed++;
        emptied.add(path.dirname(found.file));
      }
      // The folders those files were in (a result's own), when nothing else is left in them.
      for (const dir of emptied) await removeEmptyFolders(dir, root);
      return removed;
    },

    close() {},
  };
  return store;
}
