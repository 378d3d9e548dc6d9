// A local S3-compatible server (s3rver, from the npm registry) on a free port with a temporary
// folder, for the storage of a team's replicas. It runs inside the calling process; its objects are
// files under `dir`, so a test can look at what was stored.
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../support/processes.js';
import { keepFoldersOnDelete } from '../support/s3rver-keep-folders.js';
import { addMultipartCalls, type S3rverInternals } from '../support/s3rver-multipart.js';
import { atExit, removeDir } from './cleanup.js';

/** The part of s3rver 3.7 used here; the package ships no types. */
interface S3rverInstance {
  httpServer?: Server;
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  vhostBuckets: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export interface S3Server {
  /** http://127.0.0.1:<port>, for path-style requests (forcePathStyle) */
  endpoint: string;
  port: number;
  bucket: string;
  region: string;
  /** s3rver accepts exactly these credentials. */
  accessKeyId: string;
  secretAccessKey: string;
  dir: string;
  stop(): Promise<void>;
}

export async function startS3(o: { bucket?: string; port?: number } = {}): Promise<S3Server> {
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-cluster-s3-'));
  const unregister = atExit(() => removeDir(dir));
  const bucket = o.bucket ?? 'loom';
  const port = o.port ?? (await freePort());
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: dir,
    // Path-style only: no bucket.localhost host names to resolve.
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  // The multipart calls resumable uploads make (@tus/s3-store), which s3rver lacks.
  addMultipartCalls(server as unknown as S3rverInternals);
  keepFoldersOnDelete(server as unknown as Parameters<typeof keepFoldersOnDelete>[0]);
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    dir,
    async stop() {
      // Keep-alive connections of the replicas would hold close() open.
      server.httpServer?.closeAllConnections();
      await server.close().catch(() => undefined);
      removeDir(dir);
      unregister();
    },
  };
}
