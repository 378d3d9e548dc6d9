// What the companion server stored for a finished resumable upload, read back from its data folder
// (the tus disk store keeps each upload under DATA_DIR/uploads/<id>), so a test or a benchmark can
// compare it with the file that was sent.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export async function storedUpload(dataDir: string, id: string): Promise<Buffer | undefined> {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  try {
    return await readFile(path.join(dataDir, 'uploads', id));
  } catch {
    return undefined;
  }
}
