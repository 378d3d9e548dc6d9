// Where tus keeps upload bytes: the same storage as every other file. On disk, @tus/file-store in
// DATA_DIR/uploads (a volume several replicas share works: the offset is the file's size); in the
// STORAGE_URL bucket, @tus/s3-store under <prefix>uploads/, an S3 multipart upload per upload. Either
// way an upload's bytes sit under the blob key uploads/<id> once finished, so the blob store reads
// them, and removes every object an upload leaves (its info, its incomplete part) by key.
import path from 'node:path';
import { AbortMultipartUploadCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore, KvStore } from '@tus/utils';
import type { StorageConfig } from '../../config.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { nameStorageFailures, s3ClientSettings } from '../../storage/s3-bucket.js';

/** An upload id: the last segment of its URL, 128 random bits in hex. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

export interface UploadStore {
  /** The tus data store. */
  datastore: DataStore;
  /** The data store's id for an upload id (a key under the bucket's prefix on S3). */
  storeId(id: string): string;
  /** The upload id of a data store id. */
  uploadId(storeId: string): string;
  /** A finished upload's bytes, or undefined when the store has none. */
  read(id: string): Promise<Buffer | undefined>;
  /** The bytes the store holds of an upload (the tus offset), or undefined when it has no such upload. */
  offset(id: string): Promise<number | undefined>;
  /** Removes everything the store keeps of an upload, finished or not; nothing left is no error. */
  remove(id: string): Promise<void>;
  /** Removes what no row names any more: files older than `beforeMs`, the bucket's lapsed multipart uploads. */
  removeOrphans(beforeMs: number): Promise<number>;
}

/** Objects the stores write beside an upload's bytes: S3's info and incomplete part, the disk's JSON. */
const SIDE_SUFFIXES = ['', '.info', '.part', '.json'];

export function openUploadStore(o: {
  storage: StorageConfig;
  dataDir: string;
  blobs: BlobStore;
  expiryMs: number;
}): UploadStore {
  const key = (id: string) => `uploads/${id}`;
  let datastore: DataStore;
  let prefix = '';
  let abortLapsed: (beforeMs: number) => Promise<number> = async () => 0;
  if (o.storage.kind === 's3') {
    prefix = `${o.storage.prefix}uploads/`;
    const store = new S3Store({
      s3ClientConfig: { bucket: o.storage.bucket, ...s3ClientSettings(o.storage) },
      expirationPeriodInMilliseconds: o.expiryMs,
      // Any replica may continue an upload another began: what one process cached of an upload
      // could be stale there, so every request reads the upload's info from the bucket.
      cache: noCache,
    });
    const client = s3ClientOf(store);
    nameStorageFailures(client);
    datastore = store;
    const bucket = o.storage.bucket;
    const keys = prefix;
    abortLapsed = (beforeMs) => abortLapsedMultipart(client, bucket, keys, beforeMs);
  } else {
    datastore = new FileStore({
      directory: path.join(o.dataDir, 'uploads'),
      expirationPeriodInMilliseconds: o.expiryMs,
    });
  }
  return {
    datastore,
    storeId: (id) => prefix + id,
    uploadId: (storeId) => storeId.slice(prefix.length),
    read: (id) => o.blobs.read(key(id)),
    async offset(id) {
      try {
        return (await datastore.getUpload(prefix + id)).offset;
      } catch (error) {
        // The stores' "no such upload" (404) and "its bytes are gone" (410); anything else is a failure.
        const status = (error as { status_code?: unknown }).status_code;
        if (status === 404 || status === 410) return undefined;
        throw error;
      }
    },
    async remove(id) {
      // The store's own removal aborts an unfinished S3 multipart upload; what it leaves (a finished
      // upload's object, which S3Store will not remove once its multipart upload is complete) goes by key.
      await datastore.remove(prefix + id).catch(() => undefined);
      for (const suffix of SIDE_SUFFIXES) await o.blobs.remove(key(id) + suffix);
    },
    async removeOrphans(beforeMs) {
      // S3's multipart uploads are no objects: they are listed and aborted apart.
      return (await o.blobs.removeOlder('uploads/', beforeMs)) + (await abortLapsed(beforeMs));
    },
  };
}

const noCache: KvStore<never> = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

/** S3Store keeps its client protected; its failures are named like every other storage call. */
function s3ClientOf(store: S3Store): S3Client {
  return (store as unknown as { client: S3Client }).client;
}

/**
 * Aborts the multipart uploads under `prefix` begun before `beforeMs`. Not S3Store.deleteExpired:
 * it lists every multipart upload of the bucket, and would abort another application's (or another
 * deployment's, under another prefix) in a bucket they share.
 */
async function abortLapsedMultipart(
  client: S3Client,
  bucket: string,
  prefix: string,
  beforeMs: number,
): Promise<number> {
  let aborted = 0;
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    const page = await client.send(
      new ListMultipartUploadsCommand({
        Bucket: bucket,
        Prefix: prefix,
        KeyMarker: keyMarker,
        UploadIdMarker: uploadIdMarker,
      }),
    );
    for (const upload of page.Uploads ?? []) {
      if (!upload.Key?.startsWith(prefix) || !upload.Initiated || upload.Initiated.getTime() >= beforeMs)
        continue;
      await client.send(
        new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }),
      );
      aborted += 1;
    }
    if (!page.IsTruncated) return aborted;
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
  }
}
