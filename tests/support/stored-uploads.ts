// What the companion server stored for a finished resumable upload, read back from its data folder
// (the tus disk store keeps each upload under DATA_DIR/uploads/<id>), so a test or a benchmark can
// compare it with the file that was sent.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export async function storedUpload(dataDir: string, id: string): Promise<Buffer | undefined> {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  try {
    return await readFile(path.join(dataDir, 'uploads', id));
  } catch {
    return undefined;
  }
}

/** Every upload the server keeps, by id (the disk store's metadata files beside them are left out). */
export async function storedUploads(dataDir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  let names: string[];
  try {
    names = await readdir(path.join(dataDir, 'uploads'));
  } catch {
    return out;
  }
  for (const name of names) {
    if (name.includes('.')) continue;
    const bytes = await storedUpload(dataDir, name);
    if (bytes) out.set(name, bytes);
  }
  return out;
}
