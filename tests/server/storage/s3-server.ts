// A local S3-compatible server for the storage suites: s3rver on a loopback port, its objects in a
// temporary folder, one bucket `loom`. It accepts the key pair S3RVER/S3RVER, which the suites put
// where the SDK's default chain reads credentials (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { StorageConfig } from '../../../server/config.js';
import { openS3Bucket, type S3Bucket } from '../../../server/storage/s3-bucket.js';
import { keepFoldersOnDelete } from '../../support/s3rver-keep-folders.js';
import { addMultipartCalls, type S3rverInternals } from '../../support/s3rver-multipart.js';

export const BUCKET = 'loom';

/** s3rver is a Koa application: a middleware put first sees every answer. */
interface LagHook {
  middleware: Array<(ctx: { method: string; path: string; status: number; body: unknown }, next: () => Promise<void>) => Promise<void>>;
}

export interface S3TestServer {
  endpoint: string;
  /** The settings a server started against this bucket gets (with its own key prefix). */
  env(prefix: string): Record<string, string>;
  storage(prefix: string): Extract<StorageConfig, { kind: 's3' }>;
  /** A client of its own on this bucket under `prefix`. */
  bucket(prefix: string): S3Bucket;
  /** Every key under `prefix` (a test's look into the bucket). */
  keys(prefix: string): Promise<string[]>;
  /**
   * The next whole read of `key` answers its first `bytes` bytes only, as a store whose read lags
   * its write (S3-compatible services that are not strongly consistent); later reads are whole.
   */
  lagNextRead(key: string, bytes: number): void;
  close(): Promise<void>;
}

export async function startS3Server(): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 'loom-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: BUCKET }] });
  // The multipart calls resumable uploads make (@tus/s3-store), which s3rver lacks.
  addMultipartCalls(server as unknown as S3rverInternals);
  keepFoldersOnDelete(server as unknown as Parameters<typeof keepFoldersOnDelete>[0]);
  const lagging = new Map<string, number>();
  (server as unknown as LagHook).middleware.unshift(async (ctx, next) => {
    await next();
    const cut = lagging.get(decodeURIComponent(ctx.path));
    if (ctx.method !== 'GET' || cut === undefined || ctx.status !== 200 || !(ctx.body instanceof Readable)) return;
    lagging.delete(decodeURIComponent(ctx.path));
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.body) chunks.push(chunk as Buffer);
    ctx.body = Buffer.concat(chunks).subarray(0, cut);
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const storage = (prefix: string): Extract<StorageConfig, { kind: 's3' }> => ({
    kind: 's3',
    bucket: BUCKET,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
  });
  const probe = openS3Bucket(storage(''));
  return {
    endpoint,
    env: (prefix) => ({ STORAGE_URL: `s3://${BUCKET}/${prefix}`, S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'true' }),
    storage,
    bucket: (prefix) => openS3Bucket(storage(prefix)),
    lagNextRead: (key, bytes) => lagging.set(`/${BUCKET}/${key}`, bytes),
    async keys(prefix) {
      const listed = await probe.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    },
    async close() {
      probe.client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
      for (const [name, value] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
