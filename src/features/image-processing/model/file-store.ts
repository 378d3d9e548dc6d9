// The source images a user added, kept in IndexedDB so a reload keeps them. Name and type are
// stored next to the Blob because a stored File may come back as a plain Blob. The page also keeps
// the noise estimate on the record (the queue worker never reads it), so a reload keeps it.
import { withQuotaRecovery } from '../../../lib/db/quota';
import { FILES, RESULTS, openUpscaleDb, type StoredFile } from '../../../workers/upscale-queue/upscale-db';
import { readStoredNoise, type StoredNoise } from '../../../lib/noise/stored-noise';

export type { StoredFile };

export interface SourceFile extends StoredFile {
  noise?: StoredNoise;
}

export interface FileStore {
  list(owner: string): Promise<SourceFile[]>;
  put(file: SourceFile): Promise<void>;
  patch(id: string, patch: Partial<SourceFile>): Promise<void>;
  /** The same change to many files in one transaction (one commit, not one per file). */
  patchMany(ids: readonly string[], patch: Partial<SourceFile>): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
}

export const idbFileStore: FileStore = {
  async list(owner) {
    const db = await openUpscaleDb();
    const files = await db.getAllFromIndex(FILES, 'byUser', owner);
    return files
      .map((f): SourceFile => {
        const { noise, ...file } = f as StoredFile & { noise?: unknown };
        return { ...file, blob: new Blob([file.blob], { type: file.type }), noise: readStoredNoise(noise) };
      })
      .sort((a, b) => a.addedAt - b.addedAt);
  },
  async put(file) {
    const db = await openUpscaleDb();
    // A full disk evicts finished results and cached media first, then tries once more.
    await withQuotaRecovery(() => db.put(FILES, file), file.size);
  },
  async patch(id, patch) {
    const db = await openUpscaleDb();
    const tx = db.transaction(FILES, 'readwrite');
    const current = await tx.store.get(id);
    if (current) await tx.store.put({ ...current, ...patch });
    await tx.done;
  },
  async patchMany(ids, patch) {
    const db = await openUpscaleDb();
    const tx = db.transaction(FILES, 'readwrite');
    await Promise.all(
      ids.map(async (id) => {
        const current = await tx.store.get(id);
        if (current) await tx.store.put({ ...current, ...patch });
      }),
    );
    await tx.done;
  },
  async remove(ids) {
    const db = await openUpscaleDb();
    const tx = db.transaction(FILES, 'readwrite');
    await Promise.all(ids.map((id) => tx.store.delete(id)));
    await tx.done;
  },
};

export async function loadResultBlob(itemId: string): Promise<Blob | undefined> {
  const db = await openUpscaleDb();
  const r = await db.get(RESULTS, itemId);
  return r ? new Blob([r.blob], { type: r.type }) : undefined;
}

export async function loadSourceBlob(fileId: string): Promise<Blob | undefined> {
  const db = await openUpscaleDb();
  const f = await db.get(FILES, fileId);
  return f ? new Blob([f.blob], { type: f.type }) : undefined;
}
