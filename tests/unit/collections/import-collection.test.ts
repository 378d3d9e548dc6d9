// @vitest-environment node
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { collectionVocabulary } from '../../../src/lib/collections/collection-vocabulary';
import { importCollection } from '../../../src/workers/sheet-import/import-collection';
import { unzipImages } from '../../../src/workers/sheet-import/read-zip';
import { SheetImportError } from '../../../src/workers/sheet-import/sheet-error';
import { MAX_COLLECTION_IMAGES } from '../../../src/lib/collections/sheet-fields';
import { sniffImageType } from '../../../shared/images/image-types';
import { encodeGb18030 } from './gb18030';

const vocabulary = collectionVocabulary();
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Array<number>(60).fill(7)]);

function refused(run: () => unknown): SheetImportError {
  try {
    run();
  } catch (error) {
    if (error instanceof SheetImportError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('unpacking a ZIP of images', () => {
  it('unpacks image entries and skips system files and others', () => {
    const zip = zipSync({
      'season/A12_model_1.jpg': JPEG,
      'season/A12/pattern.png': JPEG,
      '__MACOSX/season/._A12_model_1.jpg': JPEG,
      'season/.DS_Store': strToU8('x'),
      'season/readme.txt': strToU8('hello'),
    });
    const entries = unzipImages(zip, 'season.zip');
    expect(entries.map((e) => e.path)).toEqual(['season/A12_model_1.jpg', 'season/A12/pattern.png']);
    expect(sniffImageType(entries[0]!.bytes)).toBe('image/jpeg');
  });

  it('refuses too many entries, too many bytes unpacked and a ZIP bomb, naming the bound', () => {
    const many = zipSync(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x${i}.jpg`, JPEG])));
    expect(
      refused(() => unzipImages(many, 'many.zip', { entries: 10, unpackedBytes: 1e9, ratio: 100 })),
    ).toMatchObject({
      key: 'zipTooManyEntries',
      values: { name: 'many.zip', max: 10 },
    });
    const big = zipSync(
      { 'a.jpg': new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) & 0xff) },
      { level: 0 },
    );
    expect(
      refused(() => unzipImages(big, 'big.zip', { entries: 10, unpackedBytes: 2 * 1024 * 1024, ratio: 100 })),
    ).toMatchObject({
      key: 'zipTooLarge',
      values: { name: 'big.zip', max: 2 },
    });
    const bomb = zipSync({ 'bomb.jpg': new Uint8Array(20 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    expect(refused(() => unzipImages(bomb, 'bomb.zip'))).toMatchObject({
      key: 'zipBomb',
      values: { name: 'bomb.zip', entry: 'bomb.jpg', ratio: 100 },
    });
    expect(refused(() => unzipImages(strToU8('not a zip at all'), 'x.zip')).key).toBe('zipUnreadable');
  });
});

describe('one import', () => {
  it("parses a GB18030 sheet, guesses its mapping, matches a ZIP's images and checks the rows", async () => {
    const sheet = encodeGb18030(
      '货号,品名,克重,光泽\r\nA12,真丝,120,柔和光泽\r\nB7,亚麻,很重,闪亮\r\n,,,\r\n',
    );
    const entries = unzipImages(
      zipSync({ 'A12/模特_1.jpg': JPEG, 'A12/花型.jpg': JPEG, 'C9_model.jpg': JPEG }),
      'images.zip',
    );
    const imported = await importCollection(vocabulary, {
      sheetName: 'season.csv',
      sheetBytes: sheet,
      images: entries.map((e) => ({ path: e.path, size: e.bytes.length, type: sniffImageType(e.bytes) })),
    });
    expect(imported).toMatchObject({
      format: 'csv',
      encoding: 'gb18030',
      delimiter: ',',
      guessedMapping: ['code', 'fabric_name', 'weight', 'luster'],
      mapping: ['code', 'fabric_name', 'weight', 'luster'],
      mappingProblems: [],
    });
    expect(imported.collection.rows[0]!.images.map((m) => [m.role, m.by])).toEqual([
      ['model', 'folder'],
      ['pattern', 'folder'],
    ]);
    expect(imported.problems.map((p) => [p.key, p.sheetRow, p.values.column ?? null])).toEqual([
      ['badWeight', 3, '克重'],
      ['unknownPreset', 3, '光泽'],
      ['noImages', 3, null],
      ['unmatchedImage', null, null],
    ]);
  });

  it('uses the mapping given, and says when no column holds the key', async () => {
    const sheet = new TextEncoder().encode('Ref;Stoff\nA12;Seide\n');
    const guessed = await importCollection(vocabulary, { sheetName: 's.csv', sheetBytes: sheet, images: [] });
    expect(guessed.guessedMapping).toEqual(['code', null]);
    const noKey = await importCollection(vocabulary, {
      sheetName: 's.csv',
      sheetBytes: sheet,
      images: [],
      mapping: [null, 'fabric_name'],
    });
    expect(noKey.mapping).toEqual([null, 'fabric_name']);
    expect(noKey.mappingProblems).toEqual([{ key: 'noKeyColumn' }]);
    const unknown = await importCollection(vocabulary, {
      sheetName: 's.csv',
      sheetBytes: new TextEncoder().encode('a,b\n1,2\n'),
      images: [],
    });
    expect(unknown.mappingProblems).toEqual([{ key: 'noHeader' }, { key: 'noKeyColumn' }]);
  });

  it('refuses more images than a collection takes', async () => {
    const images = Array.from({ length: MAX_COLLECTION_IMAGES + 1 }, (_, i) => ({
      path: `${i}.jpg`,
      size: 1,
    }));
    await expect(
      importCollection(vocabulary, {
        sheetName: 's.csv',
        sheetBytes: new TextEncoder().encode('Code\nA\n'),
        images,
      }),
    ).rejects.toMatchObject({
      key: 'tooManyImages',
      values: { count: MAX_COLLECTION_IMAGES + 1, max: MAX_COLLECTION_IMAGES },
    });
  });
});
