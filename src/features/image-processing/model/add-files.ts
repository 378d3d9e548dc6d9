// Turns dropped, picked, pasted or photographed files into stored sources plus a list of the
// rejected ones with their reasons. Files are checked one at a time by their first bytes.
import { isQuotaError } from '../../../lib/db/quota';
import { randomUuid } from '../../../lib/random-uuid';
import type { FileStore, StoredFile } from './file-store';
import { validateUpload, type RejectReason } from './upload-validation';

export interface Rejected {
  name: string;
  size: number;
  reason: RejectReason | 'storage-full';
}

export interface AddResult {
  added: StoredFile[];
  rejected: Rejected[];
}

export async function addFiles(
  files: readonly File[],
  owner: string,
  store: FileStore,
  now: () => number = Date.now,
  newId: () => string = () => randomUuid(),
): Promise<AddResult> {
  const added: StoredFile[] = [];
  const rejected: Rejected[] = [];
  for (const file of files) {
    const verdict = await validateUpload(file);
    const name = file.name || 'image';
    if (!verdict.ok) {
      rejected.push({ name, size: file.size, reason: verdict.reason });
      continue;
    }
    const stored: StoredFile = {
      id: newId(),
      userKey: owner,
      name,
      type: verdict.type,
      size: file.size,
      blob: file,
      addedAt: now(),
    };
    try {
      await store.put(stored);
    } catch (error) {
      if (!isQuotaError(error)) throw error;
      rejected.push({ name, size: file.size, reason: 'storage-full' });
      continue;
    }
    added.push(stored);
  }
  return { added, rejected };
}
