// A provider's image is stored and served only as a raster PNG, JPEG, WebP or GIF, sniffed from its
// bytes: an SVG (which a browser runs script in when it is opened), a TIFF or anything else sharp
// can rasterise is re-encoded to PNG, and the rest is refused as a bad provider response, whatever
// type the provider named.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { saveGeneratedImage } from '../../../server/modules/generation/store/stored-images.js';
import { readGeneratedImage } from '../../../server/providers/shared/images.js';
import { createDiskBlobStore } from '../../../server/storage/disk-blob-store.js';
import { createFileStore, type FileStore } from '../../../server/storage/file-store.js';
import { expectProviderError } from '../providers/provider-assertions.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><script>alert(document.cookie)</script>' +
    '<rect width="40" height="30" fill="#ff0000"/></svg>',
);
const solid = () => sharp({ create: { width: 20, height: 10, channels: 3, background: '#2457c5' } });

let database: Db;
let dataDir: string;
let files: FileStore;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'loom-generated-'));
  database = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') });
  await migrateToLatest(database);
  files = createFileStore(generationDb(database.kysely), createDiskBlobStore(dataDir), () => new Date());
});
afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('generated images are raster images', () => {
  it('re-encodes an SVG returned as an image to PNG in the provider adapters, script and all gone', async () => {
    const image = await readGeneratedImage(SVG, 'gemini', 'Candidate 1');
    expect([image.mimeType, image.width, image.height, image.label]).toEqual(['image/png', 40, 30, 'Candidate 1']);
    expect(image.data.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    expect(image.data.includes('<svg')).toBe(false);
    const { channels } = await sharp(image.data).stats();
    expect(channels.map((c) => Math.round(c.mean)).slice(0, 3)).toEqual([255, 0, 0]);
  });

  it('never stores an SVG, whatever type the provider named, and stores its PNG instead', async () => {
    for (const mimeType of ['image/svg+xml', 'image/png']) {
      const saved = await saveGeneratedImage(files, { data: SVG, mimeType, width: 40, height: 30 });
      expect([saved.mimeType, saved.width, saved.height]).toEqual(['image/png', 40, 30]);
      expect((await files.info(saved.fileId))?.mimeType).toBe('image/png');
      const stored = (await files.read(saved.fileId))!;
      expect(stored.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
      expect(stored.includes('<script')).toBe(false);
      expect((await files.info(saved.thumbnailFileId))?.mimeType).toBe('image/webp');
    }
  });

  it('keeps PNG, JPEG, WebP and GIF as they are, and re-encodes a TIFF to PNG', async () => {
    for (const [format, data] of [
      ['png', await solid().png().toBuffer()],
      ['jpeg', await solid().jpeg().toBuffer()],
      ['webp', await solid().webp().toBuffer()],
      ['gif', await solid().gif().toBuffer()],
    ] as const) {
      const saved = await saveGeneratedImage(files, { data, mimeType: 'application/octet-stream', width: 0, height: 0 });
      expect([saved.mimeType, saved.width, saved.height]).toEqual([`image/${format}`, 20, 10]);
      expect((await files.read(saved.fileId))!.equals(data)).toBe(true);
    }
    const tiff = await solid().tiff().toBuffer();
    const saved = await saveGeneratedImage(files, { data: tiff, mimeType: 'image/tiff', width: 20, height: 10 });
    expect([saved.mimeType, saved.width, saved.height]).toEqual(['image/png', 20, 10]);
    expect((await files.read(saved.fileId))!.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
  });

  it('refuses as a bad response what cannot be rasterised, or only past the pixel limit', async () => {
    await expectProviderError(readGeneratedImage(Buffer.from('%PDF-1.4 not really'), 'openai'), 'bad_response', /cannot be read/);
    await expectProviderError(
      saveGeneratedImage(files, { data: Buffer.from('<html><script>alert(1)</script></html>'), mimeType: 'image/png', width: 1, height: 1 }),
      'bad_response',
    );
    // An SVG that declares 100000 x 100000 is refused from its header, never rendered.
    const huge = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="9" height="9"/></svg>');
    await expectProviderError(readGeneratedImage(huge, 'gemini'), 'bad_response', /over 50000000 pixels/);
  });
});
