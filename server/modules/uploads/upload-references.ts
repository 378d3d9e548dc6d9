// A finished upload standing for a file in the existing multipart calls (http/multipart-form.ts):
// only its owner's, only once every byte is in and checked. A reference never uses the upload up:
// a resend of the same call may name it again; the expiry sweep removes it. An upload whose bytes
// are all in but whose finish was never recorded is finished here (upload-finish.ts).
import { AppError } from '../../http/app-error.js';
import type { UploadReferences } from '../../http/multipart-form.js';
import type { UploadFinisher } from './upload-finish.js';
import type { UploadRepository } from './upload-repository.js';
import { UPLOAD_ID, type UploadStore } from './upload-store.js';

export function createUploadReferences(
  repo: UploadRepository,
  store: UploadStore,
  finisher: UploadFinisher,
): UploadReferences {
  return {
    async find(id, userId) {
      const row = UPLOAD_ID.test(id) ? await repo.find(id) : undefined;
      // Another user's upload is answered as no upload at all.
      if (!row || row.userId !== userId) throw new AppError(404, 'upload_not_found');
      if (!row.finished) {
        const refused = await finisher.finishIfWhole(row);
        if (refused) throw refused;
      }
      return { name: row.fileName, length: row.length, purpose: row.purpose };
    },
    async read(id) {
      const data = await store.read(id);
      if (!data) throw new AppError(404, 'upload_not_found');
      return data;
    },
  };
}
