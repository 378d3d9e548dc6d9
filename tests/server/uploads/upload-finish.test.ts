// The end of an upload (server/modules/uploads/upload-finish.ts) on SQLite and the disk store: an
// image whose bytes the store reads back short, although it counted every byte in (an S3-compatible
// store whose read lags its write), is no damaged image. It is answered 503 with Retry-After and
// kept, and the finish asked again, once the store reads it whole, records it. A file that is whole
// and damaged is refused and removed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { AppError } from '../../../server/http/app-error.js';
import { createUploadFinisher } from '../../../server/modules/uploads/upload-finish.js';
import { UploadRepository } from '../../../server/modules/uploads/upload-repository.js';
import { createUsersRepository } from '../../../server/modules/users/users-repository.js';
import { openUploadStore, type UploadStore } from '../../../server/modules/uploads/upload-store.js';
import { openBlobStore } from '../../../server/storage/open-blob-store.js';
import { makeImage } from '../upscale-service/upscale-helpers.js';

const HOUR = 3600 * 1000;
const BOUNDS = { count: 100, bytes: 1024 ** 3 };

describe('the end of an upload', () => {
  let db: Db;
  let dir: string;
  let repo: UploadRepository;
  let store: UploadStore;
  let blobs: ReturnType<typeof openBlobStore>;
  let userId: number;
  let uploads = 0;
  /** Reads of these ids come back cut to this many bytes, as from a store whose read lags its write. */
  const lagging = new Map<string, number>();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'loom-finish-'));
    db = await openDatabase({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    await migrateToLatest(db);
    repo = new UploadRepository(db, () => new Date(), 24 * HOUR);
    blobs = openBlobStore({ dataDir: dir, storage: { kind: 'disk' } });
    store = openUploadStore({ storage: { kind: 'disk' }, dataDir: dir, blobs, expiryMs: 24 * HOUR });
    const user = await createUsersRepository(db.kysely, () => new Date()).create({
      account: 'finisher',
      international_code: '86',
      display_name: 'f',
      user_level: 'DESIGNER',
      password_hash: null,
    });
    userId = user.id;
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const finisher = () =>
    createUploadFinisher({
      repo,
      store: {
        ...store,
        async read(id) {
          const data = await store.read(id);
          const cut = lagging.get(id);
          return data && cut !== undefined ? data.subarray(0, cut) : data;
        },
      },
      uploadLimitBytes: 20 * 1024 * 1024,
      maxPixels: () => 50_000_000,
      log: pino({ level: 'silent' }),
    });

  /** An upload whose every byte is in the store and whose row is not finished yet. */
  const uploaded = async (data: Buffer) => {
    uploads += 1;
    const id = String(uploads).padStart(32, 'a');
    const reached = await repo.create(
      { id, userId, purpose: 'upscale', fileName: 'bolt.png', fileType: 'image/png', length: data.length },
      BOUNDS,
    );
    expect(reached).toBeUndefined();
    await blobs.put(`uploads/${id}`, data);
    return id;
  };

  it('keeps an image the store reads back short, answers 503, and records it once it reads whole', async () => {
    const image = await makeImage('png', 96, 72);
    const id = await uploaded(image);
    lagging.set(id, Math.floor(image.length / 2));
    const refused = await finisher().finish(id, { name: 'bolt.png', purpose: 'upscale', size: image.length });
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 503, key: 'storage_unavailable' });
    expect(refused?.options.retryAfterSeconds).toBeGreaterThan(0);
    expect((await repo.find(id))?.finished).toBeFalsy();
    expect(await blobs.read(`uploads/${id}`)).toEqual(image);

    lagging.delete(id);
    expect(
      await finisher().finish(id, { name: 'bolt.png', purpose: 'upscale', size: image.length }),
    ).toBeUndefined();
    expect((await repo.find(id))?.finished).toBeTruthy();
  });

  it('refuses and removes a whole file that is a damaged image', async () => {
    const image = await makeImage('png', 96, 72);
    const damaged = Buffer.concat([image.subarray(0, image.length - 200), Buffer.alloc(200)]);
    const id = await uploaded(damaged);
    const refused = await finisher().finish(id, {
      name: 'bolt.png',
      purpose: 'upscale',
      size: damaged.length,
    });
    expect(refused).toMatchObject({ status: 422, key: 'image_corrupt' });
    expect(await repo.find(id)).toBeUndefined();
    expect(await blobs.read(`uploads/${id}`)).toBeUndefined();
  });
});
