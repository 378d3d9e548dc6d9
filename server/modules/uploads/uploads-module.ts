// Resumable uploads, put together: the table, the store (disk or bucket), the lock (PostgreSQL
// advisory locks in team mode, so any replica continues an upload; memory otherwise), the tus
// endpoint in the main group, the references the multipart calls accept, and the expiry sweep.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Locker } from '@tus/utils';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { UploadReferences } from '../../http/multipart-form.js';
import { openBlobStore } from '../../storage/open-blob-store.js';
import { MAX_UPLOAD_PIXELS } from '../../storage/upload-check.js';
import { createAdvisoryLocker, type AdvisoryLocker } from './advisory-locker.js';
import { registerTusEndpoint } from './tus-endpoint.js';
import { createUploadFinisher } from './upload-finish.js';
import { createUploadReferences } from './upload-references.js';
import { UploadRepository, type UploadPurpose } from './upload-repository.js';
import { openUploadStore } from './upload-store.js';
import { createUploadSweep, type UploadSweep } from './upload-sweep.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resumable uploads, where this server speaks tus. */
    uploads?: UploadsModule;
  }
}

export interface UploadsModule {
  references: UploadReferences;
  sweep: UploadSweep;
  /** Registers the endpoint in the main group (mounted at `mountPrefix`). */
  register(group: FastifyInstance, mountPrefix: string): void;
  close(): Promise<void>;
}

export function createUploadsModule(o: {
  config: AppConfig;
  db: Db;
  log: FastifyBaseLogger;
  now: () => Date;
}): UploadsModule {
  const { config } = o;
  const expiryMs = config.uploads.expiryHours * 3600 * 1000;
  const blobs = openBlobStore(config);
  const store = openUploadStore({ storage: config.storage, dataDir: config.dataDir, blobs, expiryMs });
  const repo = new UploadRepository(o.db, o.now, expiryMs);
  let advisory: AdvisoryLocker | undefined;
  if (config.jobs.engine === 'pgboss' && config.database.kind === 'postgres') {
    advisory = createAdvisoryLocker({
      url: config.database.url,
      onError: (error) => o.log.warn({ err: error }, 'upload lock connection failed'),
    });
  }
  const locker: Locker | undefined = advisory;
  const sweep = createUploadSweep({ repo, store, expiryMs, now: o.now, log: o.log });
  // A collection's images go to the same analysis as the workflow's: the same bound.
  const maxPixels = (purpose: UploadPurpose) =>
    purpose === 'upscale' ? config.upscale.maxPixels : MAX_UPLOAD_PIXELS;
  const finisher = createUploadFinisher({
    repo,
    store,
    uploadLimitBytes: config.uploadLimitBytes,
    maxPixels,
    log: o.log,
  });
  return {
    references: createUploadReferences(repo, store, finisher),
    sweep,
    register(group, mountPrefix) {
      registerTusEndpoint(group, {
        mountPrefix,
        publicPrefix: publicPath(config.publicApi.main),
        repo,
        store,
        finisher,
        ...(locker ? { locker } : {}),
        uploadLimitBytes: config.uploadLimitBytes,
        maxPixels,
        bounds: { count: config.uploads.maxPendingPerUser, bytes: config.uploads.maxPendingBytesPerUser },
        log: o.log,
      });
    },
    async close() {
      await sweep.stop();
      await advisory?.close();
      blobs.close();
    },
  };
}

/** The endpoint's URL in /config.json: beside the main group's, as the PWA sees it. */
export function tusEndpointUrl(main: string): string {
  return `${main.replace(/\/+$/, '')}/uploads/`;
}

/** The path part of the main group's public URL (a path, or another host's URL). */
function publicPath(main: string): string {
  const path = /^https?:\/\//.test(main) ? new URL(main).pathname : main;
  return path.replace(/\/+$/, '');
}
