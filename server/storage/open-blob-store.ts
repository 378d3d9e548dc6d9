// The blob store STORAGE_URL names: DATA_DIR's disk when it is absent, else its bucket.
import type { AppConfig } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { createDiskBlobStore } from './disk-blob-store.js';
import { openS3Bucket } from './s3-bucket.js';
import { createS3BlobStore } from './s3-blob-store.js';

export function openBlobStore(config: Pick<AppConfig, 'dataDir' | 'storage'>): BlobStore {
  return config.storage.kind === 's3'
    ? createS3BlobStore(openS3Bucket(config.storage))
    : createDiskBlobStore(config.dataDir);
}
