// The source images a user added, kept in IndexedDB so a reload keeps them. Name and type are
// stored next to the Blob because a stored File may come back as a plain Blob.
import { FILES, RESULTS, openUpscaleDb, type StoredFile } from '../../../workers/upscale-queue/upscale-db';

export type { StoredFile };

export interface FileStore {
  list(owner: string): Promise<StoredFile[]>;
  put(file: StoredFile): Promise<void>;
  patch(id: string, patch: Partial<StoredFile>): Promise<void>;
  /** The same change to many files in one transaction (one commit, not one per file). */
  patchMany(ids: readonly string[], patch: Partial<StoredFile>): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
}

export const idbFileStore: FileStore = {
  async list(owner) {
    const db = await openUpscaleDb();
    const files = await db.getAllFromIndex(FILES, 'byUser', owner);
    return files
      .map((f) => ({ ...f, blob: new Blob([f.blob], { type: f.type }) }))
      .sort((a, b) => a.addedAt - b.addedAt);
  },
  async put(file) {
    const db = await openUpscaleDb();
    await db.put(FILES, file);
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
