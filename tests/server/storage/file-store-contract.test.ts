// One contract for every FileStore: on the local disk (also a volume several processes share) and
// in an S3-compatible bucket (s3rver here). The same body runs against both, on SQLite and, when
// it answers, PostgreSQL (the rows in stored_files).
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { createDiskBlobStore } from '../../../server/storage/disk-blob-store.js';
import { createFileStore, type FileStore } from '../../../server/storage/file-store.js';
import { openBlobStore } from '../../../server/storage/open-blob-store.js';
import { createS3BlobStore } from '../../../server/storage/s3-blob-store.js';
import { isMissing } from '../../../server/storage/s3-bucket.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';
import { BUCKET, startS3Server, type S3TestServer } from './s3-server.js';

interface Implementation {
  name: string;
  /** A store as one process sees it; two calls are two processes on the same storage. */
  open(db: Db): FileStore;
  /** Loses a stored file's bytes behind the store's back (its row stays). */
  lose(id: string): Promise<void>;
  /** Uploads (S3) or file writes (disk) counted so far. */
  writes(): number;
  leftovers(): string[];
}

const image = (w: number, h: number, rgb = { r: 200, g: 40, b: 40 }) =>
  sharp({ create: { width: w, height: h, channels: 3, background: rgb } }).png().toBuffer();

async function drain(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

let s3: S3TestServer;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function diskImplementation(): Implementation {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-files-'));
  dirs.push(dataDir);
  const root = path.join(dataDir, 'files');
  const listAll = () =>
    readdirSync(root, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? readdirSync(path.join(root, d.name)) : [d.name],
    );
  return {
    name: 'disk',
    open: (db) => createFileStore(generationDb(db.kysely), createDiskBlobStore(dataDir), () => new Date()),
    lose: async (id) => unlinkSync(path.join(root, id.slice(0, 2), id)),
    writes: () => {
      try {
        return listAll().length;
      } catch {
        return 0;
      }
    },
    leftovers: () => listAll().filter((n) => n.endsWith('.tmp')),
  };
}

function s3Implementation(prefix: string): Implementation {
  let puts = 0;
  const probe = s3.bucket(prefix);
  return {
    name: 's3',
    open: (db) => {
      const bucket = s3.bucket(prefix);
      bucket.client.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === 'PutObjectCommand') puts += 1;
          return next(args);
        },
        { step: 'initialize', name: 'countPuts' },
      );
      return createFileStore(generationDb(db.kysely), createS3BlobStore(bucket), () => new Date());
    },
    lose: async (id) => {
      await probe.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${prefix}/files/${id.slice(0, 2)}/${id}` }));
    },
    writes: () => puts,
    leftovers: () => [],
  };
}

for (const dbKind of databaseKinds) {
  for (const kind of ['disk', 's3'] as const) {
    describe.skipIf(dbKind.skip)(`FileStore contract: ${kind} on ${dbKind.kind}`, () => {
      let database: Db;
      let impl: Implementation;
      let store: FileStore;
      const schema = uniqueSchema();
      const dbDir = mkdtempSync(path.join(tmpdir(), 'loom-files-db-'));
      dirs.push(dbDir);

      beforeAll(async () => {
        database = await openDatabase(
          dbKind.kind === 'sqlite'
            ? { kind: 'sqlite', file: path.join(dbDir, 'db.sqlite') }
            : { kind: 'postgres', url: POSTGRES_URL, schema },
        );
        await migrateToLatest(database);
        impl = kind === 'disk' ? diskImplementation() : s3Implementation(`contract-${dbKind.kind}-${schema}`);
        store = impl.open(database);
      });
      afterAll(async () => {
        store?.close?.();
        await database?.close();
        if (dbKind.kind === 'postgres') await dropSchema(schema);
      });

      it('stores by content hash once, answers info from its row and reads the bytes back', async () => {
        const data = await image(40, 30);
        const before = impl.writes();
        const a = await store.put(data, 'image/png', { width: 40, height: 30 });
        expect(a).toEqual({ id: a.id, mimeType: 'image/png', size: data.length, width: 40, height: 30 });
        expect(a.id).toMatch(/^[0-9a-f]{64}$/);
        expect(impl.writes()).toBe(before + 1);
        // The same bytes again: the same id, and no second upload.
        const b = await store.put(data, 'image/png', { width: 40, height: 30 });
        expect(b.id).toBe(a.id);
        expect(impl.writes()).toBe(before + 1);
        expect(await store.info(a.id)).toEqual(a);
        expect((await store.read(a.id))?.equals(data)).toBe(true);
        expect((await drain(await store.open(a.id)))?.equals(data)).toBe(true);
        expect(impl.leftovers()).toEqual([]);
      });

      it('serves exact byte ranges: inside, the first byte alone, and up to the last byte', async () => {
        const data = await image(64, 64, { r: 10, g: 200, b: 90 });
        const { id } = await store.put(data, 'image/png');
        expect((await drain(await store.open(id, { start: 1, end: 3 })))?.equals(data.subarray(1, 4))).toBe(true);
        // s3rver answers bytes=0-0 with the whole object; the store still gives exactly one byte.
        expect((await drain(await store.open(id, { start: 0, end: 0 })))?.equals(data.subarray(0, 1))).toBe(true);
        const last = data.length - 1;
        expect((await drain(await store.open(id, { start: last - 9, end: last })))?.equals(data.subarray(-10))).toBe(
          true,
        );
      });

      it('answers undefined for unknown, malformed and lost files instead of throwing', async () => {
        const unknown = '0'.repeat(64);
        expect(await store.info(unknown)).toBeUndefined();
        expect(await store.read(unknown)).toBeUndefined();
        expect(await store.open(unknown)).toBeUndefined();
        expect(await store.open(unknown, { start: 0, end: 9 })).toBeUndefined();
        for (const bad of ['../etc/passwd', 'A'.repeat(64), '']) {
          expect(await store.info(bad)).toBeUndefined();
          expect(await store.read(bad)).toBeUndefined();
          expect(await store.open(bad)).toBeUndefined();
        }
        const { id } = await store.put(await image(8, 8, { r: 1, g: 2, b: 3 }), 'image/png');
        await impl.lose(id);
        expect(await store.read(id)).toBeUndefined();
        expect(await store.open(id, { start: 0, end: 3 })).toBeUndefined();
        // A put of the same bytes brings them back (the object's absence is seen, not assumed).
        await store.put(await image(8, 8, { r: 1, g: 2, b: 3 }), 'image/png');
        expect(await store.read(id)).toBeDefined();
      });

      it('two processes on the same storage store the same content at once and read each other’s files', async () => {
        const other = impl.open(database);
        try {
          const data = await image(100, 80, { r: 90, g: 90, b: 250 });
          const [a, b] = await Promise.all([store.put(data, 'image/png'), other.put(data, 'image/png')]);
          expect(b.id).toBe(a.id);
          expect((await other.read(a.id))?.equals(data)).toBe(true);
          const only = await store.put(await image(20, 20, { r: 5, g: 5, b: 5 }), 'image/png');
          expect(await other.info(only.id)).toEqual(only);
          expect((await drain(await other.open(only.id, { start: 2, end: 20 })))?.length).toBe(19);
          expect(impl.leftovers()).toEqual([]);
        } finally {
          other.close?.();
        }
      });
    });
  }
}

describe('choosing the store', () => {
  it('uses DATA_DIR without STORAGE_URL and the bucket with it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-files-choice-'));
    dirs.push(dataDir);
    const database = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') });
    try {
      await migrateToLatest(database);
      const db = generationDb(database.kysely);
      const data = await image(12, 12, { r: 7, g: 7, b: 7 });
      const disk = createFileStore(db, openBlobStore({ dataDir, storage: { kind: 'disk' } }), () => new Date());
      const { id } = await disk.put(data, 'image/png');
      expect(readdirSync(path.join(dataDir, 'files', id.slice(0, 2)))).toEqual([id]);
      const bucket = createFileStore(db, openBlobStore({ dataDir, storage: s3.storage('choice') }), () => new Date());
      await bucket.put(data, 'image/png');
      expect(await s3.keys('choice/')).toEqual([`choice/files/${id.slice(0, 2)}/${id}`]);
      bucket.close?.();
    } finally {
      await database.close();
    }
  });
});

// What the stores rely on, against the S3 API reference (GetObject: one range per request, 206 with
// `Content-Range: bytes start-end/size`; HeadObject: a bare 404 for a missing key when the caller
// may list the bucket), and the s3rver quirks the stores allow for.
describe('s3rver answers where the stores depend on them', () => {
  it('ranges, missing keys, and its two range quirks', async () => {
    const bucket = s3.bucket('answers');
    const data = Buffer.from('0123456789abcdefghij');
    const Key = 'answers/object';
    try {
      await bucket.client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: data }));
      const ranged = await bucket.client.send(new GetObjectCommand({ Bucket: BUCKET, Key, Range: 'bytes=1-3' }));
      expect(ranged.$metadata.httpStatusCode).toBe(206);
      expect(ranged.ContentRange).toBe('bytes 1-3/20');
      expect(ranged.ContentLength).toBe(3);
      expect(await ranged.Body!.transformToString()).toBe('123');

      const head = await bucket.client
        .send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'answers/missing' }))
        .then(() => undefined, (error: unknown) => error);
      expect(head).toMatchObject({ name: 'NotFound', $metadata: { httpStatusCode: 404 } });
      expect(isMissing(head)).toBe(true);
      const get = await bucket.client
        .send(new GetObjectCommand({ Bucket: BUCKET, Key: 'answers/missing' }))
        .then(() => undefined, (error: unknown) => error);
      expect(get).toMatchObject({ name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
      expect(isMissing(get)).toBe(true);

      // Quirk 1: an end of 0 reads as "no end" (S3 sends the one byte): the stores clip to the range.
      const first = await bucket.client.send(new GetObjectCommand({ Bucket: BUCKET, Key, Range: 'bytes=0-0' }));
      expect(first.ContentRange).toBe('bytes 0-19/20');
      await first.Body!.transformToString();
      // Quirk 2: a suffix range (the last 5 bytes on S3) reads as bytes 0-5: the stores never send one,
      // the routes turn `bytes=-N` into an explicit start and end first.
      const suffix = await bucket.client.send(new GetObjectCommand({ Bucket: BUCKET, Key, Range: 'bytes=-5' }));
      expect(suffix.ContentRange).toBe('bytes 0-5/20');
      await suffix.Body!.transformToString();
    } finally {
      bucket.client.destroy();
    }
  });
});
