import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { AppError } from '../../../server/http/app-error.js';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { createDiskBlobStore } from '../../../server/storage/disk-blob-store.js';
import { createFileStore } from '../../../server/storage/file-store.js';
import { createSignedLinks } from '../../../server/storage/signed-links.js';
import { makeThumbnail } from '../../../server/storage/thumbnails.js';
import { checkUploadedImage } from '../../../server/storage/upload-check.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';

const png = (w: number, h: number, rgb = { r: 200, g: 40, b: 40 }) =>
  sharp({ create: { width: w, height: h, channels: 3, background: rgb } }).png().toBuffer();

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`file store on ${db.kind}`, () => {
    let database: Db;
    let dataDir: string;
    const schema = uniqueSchema();
    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'loom-files-'));
      database = await openDatabase(
        db.kind === 'sqlite'
          ? { kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') }
          : { kind: 'postgres', url: POSTGRES_URL, schema },
      );
      await migrateToLatest(database);
    });
    afterAll(async () => {
      await database?.close();
      if (db.kind === 'postgres') await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('stores by content hash once, reads back, and serves ranges', async () => {
      const store = createFileStore(generationDb(database.kysely), createDiskBlobStore(dataDir), () => new Date());
      const data = await png(40, 30);
      const a = await store.put(data, 'image/png', { width: 40, height: 30 });
      const b = await store.put(data, 'image/png', { width: 40, height: 30 });
      expect(a.id).toMatch(/^[0-9a-f]{64}$/);
      expect(b.id).toBe(a.id);
      expect(readdirSync(path.join(dataDir, 'files', a.id.slice(0, 2)))).toEqual([a.id]);
      expect(await store.info(a.id)).toEqual({ id: a.id, mimeType: 'image/png', size: data.length, width: 40, height: 30 });
      expect((await store.read(a.id))?.equals(data)).toBe(true);
      const chunks: Buffer[] = [];
      for await (const c of (await store.open(a.id, { start: 1, end: 3 }))!) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(data.subarray(1, 4))).toBe(true);
      expect(await store.info('../etc/passwd')).toBeUndefined();
      expect(await store.read('0'.repeat(64))).toBeUndefined();
    });
  });
}

describe('thumbnails, links and upload checks', () => {
  it('makes a WebP thumbnail within 320 px', async () => {
    const t = await makeThumbnail(await png(1000, 500));
    expect(t.mimeType).toBe('image/webp');
    expect([t.width, t.height]).toEqual([320, 160]);
    expect((await sharp(t.data).metadata()).format).toBe('webp');
  });

  it('signs links that expire and cannot be altered', () => {
    const links = createSignedLinks(new Uint8Array(32).fill(7), 'storedFile', '/api', 3600);
    const now = Date.UTC(2030, 0, 1, 10, 15);
    const url = new URL(links.sign('a'.repeat(64), 'image-1.png', now), 'http://x');
    expect(url.pathname).toBe(`/api/files/${'a'.repeat(64)}/image-1.png`);
    const expires = url.searchParams.get('expires')!;
    const sig = url.searchParams.get('sig')!;
    // Rounded up to the hour: the same link for a while, so caches keep it.
    expect(links.sign('a'.repeat(64), 'image-1.png', now + 60_000)).toBe(url.pathname + url.search);
    expect(links.verify('a'.repeat(64), 'image-1.png', expires, sig, now)).toBe(true);
    expect(links.verify('b'.repeat(64), 'image-1.png', expires, sig, now)).toBe(false);
    expect(links.verify('a'.repeat(64), 'image-2.png', expires, sig, now)).toBe(false);
    expect(links.verify('a'.repeat(64), 'image-1.png', String(Number(expires) + 3600), sig, now)).toBe(false);
    expect(links.verify('a'.repeat(64), 'image-1.png', expires, sig, Number(expires) * 1000 + 1)).toBe(false);
  });

  it('refuses wrong types, corrupt data, too many bytes and too many pixels with the limit named', async () => {
    const limits = { maxBytes: 1024 * 1024, maxPixels: 1_000_000 };
    const good = await png(64, 48);
    expect(await checkUploadedImage(good, 'a.png', limits)).toEqual({ mimeType: 'image/png', width: 64, height: 48 });
    const refusal = async (data: Buffer, l = limits) => {
      try {
        await checkUploadedImage(data, 'x.png', l);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        const e = error as AppError;
        return { status: e.status, key: e.key, vars: e.options.vars };
      }
      throw new Error('accepted');
    };
    expect(await refusal(Buffer.from('MZ this is not an image'))).toMatchObject({ status: 415, key: 'unsupported_image_type' });
    expect(await refusal(good.subarray(0, 40))).toMatchObject({ status: 422, key: 'image_corrupt' });
    expect(await refusal(good, { maxBytes: 100, maxPixels: 1e6 })).toMatchObject({ status: 413, key: 'image_too_large' });
    expect(await refusal(await png(2000, 1000))).toMatchObject({
      status: 413,
      key: 'image_too_many_pixels',
      vars: { max: 1_000_000 },
    });
  });
});
