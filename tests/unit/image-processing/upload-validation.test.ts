import { describe, expect, it } from 'vitest';
import { addFiles } from '../../../src/features/image-processing/model/add-files';
import type { FileStore, StoredFile } from '../../../src/features/image-processing/model/file-store';
import {
  MAX_UPLOAD_BYTES,
  sniffImageType,
  validateUpload,
} from '../../../src/features/image-processing/model/upload-validation';

const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d];
const GIF = [...'GIF89a'].map((c) => c.charCodeAt(0)).concat([1, 0, 1, 0, 0, 0]);
const WEBP = [...'RIFF']
  .map((c) => c.charCodeAt(0))
  .concat(
    [0x24, 0, 0, 0],
    [...'WEBPVP8 '].map((c) => c.charCodeAt(0)),
  );
const BMP = [0x42, 0x4d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

function file(bytes: number[], name: string, type = ''): File {
  return new File([new Uint8Array(bytes)], name, { type });
}

describe('upload validation (spec §5)', () => {
  it('recognises JPEG, PNG, GIF and WebP by their first bytes', () => {
    expect(sniffImageType(new Uint8Array(JPEG))).toBe('image/jpeg');
    expect(sniffImageType(new Uint8Array(PNG))).toBe('image/png');
    expect(sniffImageType(new Uint8Array(GIF))).toBe('image/gif');
    expect(sniffImageType(new Uint8Array(WEBP))).toBe('image/webp');
    expect(sniffImageType(new Uint8Array(BMP))).toBeNull();
  });

  it('trusts the bytes, not the name or the declared type', async () => {
    expect(await validateUpload(file(BMP, 'fabric.jpg', 'image/jpeg'))).toEqual({
      ok: false,
      reason: 'unsupported-type',
    });
    expect(await validateUpload(file(PNG, 'scan.bin', 'application/octet-stream'))).toEqual({
      ok: true,
      type: 'image/png',
    });
    expect(
      await validateUpload(
        file(
          [...'%PDF-1.7 xxx'].map((c) => c.charCodeAt(0)),
          'a.png',
        ),
      ),
    ).toMatchObject({ ok: false });
  });

  it('refuses empty files and files over 10 MB', async () => {
    expect(await validateUpload(file([], 'empty.png'))).toEqual({ ok: false, reason: 'empty' });
    const big = new File([new Uint8Array(JPEG), new Uint8Array(MAX_UPLOAD_BYTES)], 'big.jpg');
    expect(await validateUpload(big)).toEqual({ ok: false, reason: 'too-large' });
    const exact = new File([new Uint8Array(JPEG), new Uint8Array(MAX_UPLOAD_BYTES - JPEG.length)], 'max.jpg');
    expect(await validateUpload(exact)).toEqual({ ok: true, type: 'image/jpeg' });
  });

  it('stores accepted files with name and type apart and lists every rejected one with its reason', async () => {
    const stored: StoredFile[] = [];
    const store: FileStore = {
      list: async () => stored,
      put: async (f) => void stored.push(f),
      patch: async () => {},
      patchMany: async () => {},
      remove: async () => {},
    };
    let n = 0;
    const result = await addFiles(
      [file(PNG, 'a.png'), file(BMP, 'b.bmp'), file(GIF, 'c.gif'), file([], 'd.webp')],
      'id:1',
      store,
      () => 1000,
      () => `f${++n}`,
    );
    expect(result.added.map((f) => [f.name, f.type, f.userKey])).toEqual([
      ['a.png', 'image/png', 'id:1'],
      ['c.gif', 'image/gif', 'id:1'],
    ]);
    expect(result.rejected).toEqual([
      { name: 'b.bmp', size: 12, reason: 'unsupported-type' },
      { name: 'd.webp', size: 0, reason: 'empty' },
    ]);
    expect(stored).toHaveLength(2);
  });

  it('lists a file that no longer fits on the device as such, and goes on with the others', async () => {
    const stored: StoredFile[] = [];
    let puts = 0;
    const store: FileStore = {
      list: async () => stored,
      put: async (f) => {
        puts += 1;
        if (puts === 1) throw new DOMException('full', 'QuotaExceededError');
        stored.push(f);
      },
      patch: async () => {},
      patchMany: async () => {},
      remove: async () => {},
    };
    const result = await addFiles([file(PNG, 'big.png'), file(JPEG, 'small.jpg')], 'id:1', store);
    expect(result.rejected).toEqual([{ name: 'big.png', size: 12, reason: 'storage-full' }]);
    expect(result.added.map((f) => f.name)).toEqual(['small.jpg']);
  });

  it('does not hide other storage failures behind a rejection', async () => {
    const store: FileStore = {
      list: async () => [],
      put: async () => {
        throw new DOMException('gone', 'InvalidStateError');
      },
      patch: async () => {},
      patchMany: async () => {},
      remove: async () => {},
    };
    await expect(addFiles([file(PNG, 'a.png')], 'id:1', store)).rejects.toThrow('gone');
  });
});
