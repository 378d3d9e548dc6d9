import { describe, expect, it } from 'vitest';
import {
  deletePendingCollection,
  deleteWorkingImport,
  patchWorkingImport,
  readWorkingImport,
  writeWorkingImport,
  readPendingCollection,
  readPendingCollections,
  readPendingImage,
  savePendingCollection,
  updatePendingCollection,
  wipeAllPendingCollections,
  wipeOtherPendingCollections,
  type PendingCollectionRecord,
} from '../../../src/lib/db/collection-draft-store';
import { defaultSettings } from '../../../src/features/collections/model/collection-settings';

function record(id: string, userKey: string, createdAt: number, images = 2): PendingCollectionRecord {
  return {
    id,
    userKey,
    createdAt,
    name: `Collection ${id}`,
    language: 'en-US',
    settings: defaultSettings('prompt'),
    items: [{ code: 'A1', fabric: {}, model_images: [0], pattern_images: images > 1 ? [1] : [] }],
    images: Array.from({ length: images }, (_, i) => ({
      name: `A1/${i}.jpg`,
      type: 'image/jpeg',
      size: 3,
      uploadUrl: null,
      uploadId: null,
    })),
    sheet: { headers: ['Code'], mapping: ['code'], rows: [{ sheetRow: 2, cells: ['A1'], excluded: false }] },
    refused: null,
  };
}

const blob = (text: string) => new Blob([text], { type: 'image/jpeg' });

describe('collections kept on the device until the server has them', () => {
  it('keep the draft and its images, per user, oldest first', async () => {
    await wipeAllPendingCollections();
    await savePendingCollection(record('b', 'u1', 20), [blob('b-0'), blob('b-one')]);
    await savePendingCollection(record('a', 'u1', 10), [blob('a-0'), blob('a-1')]);
    await savePendingCollection(record('c', 'u2', 5, 1), [blob('c-0')]);
    expect((await readPendingCollections('u1')).map((r) => r.id)).toEqual(['a', 'b']);
    // jsdom's Blob comes back from fake-indexeddb as a bare clone: that it is there is what is checked.
    expect(await readPendingImage('b', 1)).toBeDefined();
    expect(await readPendingImage('c', 0)).toBeDefined();
    expect(await readPendingImage('b', 2)).toBeUndefined();
  });

  it('refuses a draft without a Blob for each image, keeping nothing of it', async () => {
    await wipeAllPendingCollections();
    await expect(savePendingCollection(record('x', 'u1', 1), [blob('only one')])).rejects.toThrow();
    expect(await readPendingCollection('x')).toBeUndefined();
    expect(await readPendingImage('x', 0)).toBeUndefined();
  });

  it('record each upload as it goes, without losing another change', async () => {
    await wipeAllPendingCollections();
    await savePendingCollection(record('a', 'u1', 1), [blob('0'), blob('1')]);
    const set = (index: number, uploadId: string) =>
      updatePendingCollection('a', (r) => ({
        ...r,
        images: r.images.map((image, i) => (i === index ? { ...image, uploadId } : image)),
      }));
    await Promise.all([set(0, 'up-0'), set(1, 'up-1')]);
    expect((await readPendingCollection('a'))!.images.map((i) => i.uploadId)).toEqual(['up-0', 'up-1']);
    expect(await updatePendingCollection('missing', (r) => r)).toBeUndefined();
  });

  it('forget a draft with its images, and other users’ drafts', async () => {
    await wipeAllPendingCollections();
    await savePendingCollection(record('a', 'u1', 1), [blob('0'), blob('1')]);
    await savePendingCollection(record('b', 'u1', 2), [blob('0'), blob('1')]);
    await savePendingCollection(record('c', 'u2', 3, 1), [blob('0')]);
    await deletePendingCollection('a');
    expect(await readPendingCollection('a')).toBeUndefined();
    expect(await readPendingImage('a', 0)).toBeUndefined();
    expect(await readPendingImage('b', 0)).toBeDefined();
    await wipeOtherPendingCollections('u2');
    expect(await readPendingCollections('u1')).toEqual([]);
    expect((await readPendingCollections('u2')).map((r) => r.id)).toEqual(['c']);
    expect(await readPendingImage('b', 1)).toBeUndefined();
  });

  it('keep the import before Start per user: its files once, the work on them as it changes', async () => {
    await wipeAllPendingCollections();
    const base = {
      savedAt: 1,
      sheet: new File(['Code\r\nA1\r\n'], 'sheet.csv'),
      images: { kind: 'folder' as const, files: [new File(['x'], 'A1.jpg')], paths: ['imgs/A1.jpg'] },
      mapping: null,
      rows: null,
      name: '',
      settings: null,
    };
    await writeWorkingImport({ ...base, userKey: 'u1' });
    await writeWorkingImport({ ...base, userKey: 'u2' });
    await patchWorkingImport('u1', { mapping: ['code'], rows: [{ cells: ['A1'], excluded: true }], name: 'Summer' });
    const kept = await readWorkingImport('u1');
    expect(kept).toMatchObject({ mapping: ['code'], rows: [{ cells: ['A1'], excluded: true }], name: 'Summer' });
    expect(kept?.images).toMatchObject({ kind: 'folder', paths: ['imgs/A1.jpg'] });
    // Nothing to change when nothing is kept.
    await patchWorkingImport('u3', { name: 'x' });
    expect(await readWorkingImport('u3')).toBeUndefined();
    await wipeOtherPendingCollections('u1');
    expect(await readWorkingImport('u2')).toBeUndefined();
    await deleteWorkingImport('u1');
    expect(await readWorkingImport('u1')).toBeUndefined();
  });
});
