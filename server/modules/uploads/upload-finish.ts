// The last step of an upload: every byte is in, the whole image passes its checks, and the row
// says so. It runs when the last PATCH ends, and again when a call names an upload whose row never
// said so although the store holds every byte: the process died, or the database was away, between
// the last byte and its record. Without that second chance the client, whose HEAD reads the whole
// length and so counts the upload as done, would be told "incomplete" on every resend.
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { STORAGE_RETRY_AFTER_SECONDS } from '../../storage/storage-unavailable.js';
import { refuseWhole } from './upload-image-check.js';
import type { UploadPurpose, UploadRepository, UploadRow } from './upload-repository.js';
import type { UploadStore } from './upload-store.js';

export interface UploadFinisher {
  /** Removes everything the store and the table keep of an upload (a refused image, a termination). */
  forget(id: string): Promise<void>;
  /** Checks the whole image and records it finished; a refused image is removed and its refusal returned. */
  finish(
    id: string,
    facts: { name: string; purpose: UploadPurpose; size?: number },
  ): Promise<AppError | undefined>;
  /**
   * An unfinished row named by a call: finished now when the store holds every byte, else why not
   * (409 with the store's offset, or 404 when the store has no such upload, so the client starts anew).
   */
  finishIfWhole(row: UploadRow): Promise<AppError | undefined>;
}

export function createUploadFinisher(o: {
  repo: UploadRepository;
  store: UploadStore;
  uploadLimitBytes: number;
  maxPixels: (purpose: UploadPurpose) => number;
  log: FastifyBaseLogger;
}): UploadFinisher {
  /** Everything the store and the table keep of an upload. */
  const forget = async (id: string) => {
    await o.store.remove(id);
    await o.repo.remove(id);
  };

  const finish: UploadFinisher['finish'] = async (id, { name, purpose, size }) => {
    const data = await o.store.read(id);
    // The store counted every byte in, and its read brought fewer: its read lags its write (an
    // S3-compatible store that is not yet consistent). The image is not to blame: nothing is removed,
    // and the client comes back after Retry-After; a call naming the upload finishes it here again.
    if (data && size !== undefined && data.length < size) {
      o.log.warn({ uploadId: id, bytes: data.length, length: size }, 'an upload read back short');
      return new AppError(503, 'storage_unavailable', { retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS });
    }
    const refused = data
      ? await refuseWhole(data, name, { maxBytes: o.uploadLimitBytes, maxPixels: o.maxPixels(purpose) })
      : new AppError(404, 'upload_not_found');
    if (refused) {
      // Rare once the head passed (a damaged body, a header past the head): worth an operator's look.
      o.log.warn(
        { uploadId: id, key: refused.key, bytes: data?.length, length: size },
        'an upload was refused at its end',
      );
      await forget(id);
      return refused;
    }
    await o.repo.finish(id, size ?? data!.length);
    return undefined;
  };

  return {
    forget,
    finish,
    async finishIfWhole(row) {
      const offset = await o.store.offset(row.id);
      if (offset === undefined) {
        await forget(row.id);
        return new AppError(404, 'upload_not_found');
      }
      if (offset < row.length)
        return new AppError(409, 'upload_incomplete', { vars: { offset, length: row.length } });
      return finish(row.id, { name: row.fileName, purpose: row.purpose as UploadPurpose, size: row.length });
    },
  };
}
