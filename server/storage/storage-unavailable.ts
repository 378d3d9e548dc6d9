// Shared storage (an S3-compatible bucket) that could not be reached or answered with a server
// error. Its network errors carry the same codes a database's do (ECONNREFUSED, ETIMEDOUT…), so
// they are wrapped in this one error where the bucket is called, and answered as the storage's
// trouble (503 storage_unavailable), never as the database's.
import { S3ServiceException } from '@aws-sdk/client-s3';

/** A storage that is worth asking again once it is back. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  readonly code = 'storage_unavailable';

  constructor(cause: unknown) {
    super(`the file storage could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export function isStorageUnavailable(error: unknown): error is StorageUnavailableError {
  return error instanceof StorageUnavailableError;
}

/**
 * What a failed bucket call is: a storage outage (no answer, or a 5xx) becomes a
 * StorageUnavailableError; the bucket's own answers (a missing key, a refusal) and an abort by
 * the caller stay as they are.
 */
export function storageFailure(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return error;
  if (error instanceof S3ServiceException) {
    return (error.$metadata.httpStatusCode ?? 0) >= 500 ? new StorageUnavailableError(error) : error;
  }
  if (error instanceof Error && error.name === 'AbortError') return error;
  return new StorageUnavailableError(error);
}
