// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { collectionVocabulary } from '../../../src/lib/collections/collection-vocabulary';
import { buildCollection, type CollectionImage } from '../../../src/lib/collections/collection-check';
import { guessMapping } from '../../../src/lib/collections/column-mapping';
import { draftOf, editCell, setExcluded } from '../../../src/features/collections/model/collection-draft';
import {
  UploadsMissing,
  createCollectionBody,
  planPendingCollection,
} from '../../../src/features/collections/model/pending-collection';
import { defaultSettings } from '../../../src/features/collections/model/collection-settings';
import { remapDraft } from '../../../src/features/collections/model/remap-draft';
import { newClientCollectionId } from '../../../src/features/collections/model/client-collection-id';

const vocabulary = collectionVocabulary();
const headers = ['Code', 'Fabric name', 'Weight', 'Luster', 'Remarks'];
const img = (path: string): CollectionImage => ({ path, size: 1000, type: 'image/jpeg' });
const label = (field: string, key: string) => `${field}:${key}`;

function draft(rows: string[][], images: CollectionImage[]) {
  const table = { headers, rows: rows.map((cells, i) => ({ sheetRow: i + 2, cells })) };
  return draftOf(vocabulary, buildCollection(vocabulary, table, guessMapping(vocabulary, headers), images));
}

const images = [
  img('A1_model_1.jpg'),
  img('A1_pattern.jpg'),
  img('B2_pattern.jpg'),
  img('C3_model.jpg'),
  img('stray.jpg'),
];
const rows = [
  ['A1', 'Silk crêpe', '120 g/m²', 'soft luster', 'Sample'],
  ['B2', 'Linen', 'heavy', '', ''],
  ['C3', 'Wool', '300', 'Sparkly as a disco', ''],
];

describe('the collection Start keeps', () => {
  it('holds the ready rows only, each image once, model and pattern apart', () => {
    const d = draft(rows, images);
    // B2's weight is no weight: blocked, so it and its image stay out.
    const plan = planPendingCollection(vocabulary, d, label);
    expect(plan.items.map((i) => i.code)).toEqual(['A1', 'C3']);
    expect(plan.images).toEqual([0, 1, 3]);
    expect(plan.items[0]).toEqual({
      code: 'A1',
      name: 'Silk crêpe',
      fabric: { fabric_name: 'Silk crêpe', weight: '120 g/m²', luster: 'luster:soft', remarks: 'Sample' },
      model_images: [0],
      pattern_images: [1],
    });
    // A word that is no preset goes as the person's own words.
    expect(plan.items[1]!.fabric.luster).toBe('Sparkly as a disco');
    expect(plan.items[1]).toMatchObject({ model_images: [2], pattern_images: [] });
  });

  it('follows a fixed cell and a row left out', () => {
    let d = draft(rows, images);
    d = editCell(vocabulary, d, 1, 2, '180gsm');
    d = setExcluded(vocabulary, d, 0, true);
    const plan = planPendingCollection(vocabulary, d, label);
    expect(plan.items.map((i) => i.code)).toEqual(['B2', 'C3']);
    expect(plan.images).toEqual([2, 3]);
    expect(plan.items[0]!.fabric.weight).toBe('180gsm');
  });

  it('a corrected mapping keeps the fixes and the rows left out', () => {
    let d = draft(rows, images);
    d = editCell(vocabulary, d, 1, 2, '200');
    d = setExcluded(vocabulary, d, 2, true);
    // Remarks ignored: the field leaves every item.
    const remapped = remapDraft(vocabulary, d, ['code', 'fabric_name', 'weight', 'luster', null]);
    expect(remapped.collection.rows.map((r) => r.excluded)).toEqual([false, false, true]);
    expect(remapped.collection.rows[1]!.cells[2]).toBe('200');
    const plan = planPendingCollection(vocabulary, remapped, label);
    expect(plan.items.map((i) => i.code)).toEqual(['A1', 'B2']);
    expect(plan.items[0]!.fabric).not.toHaveProperty('remarks');
  });
});

describe('the create call body', () => {
  const plan = planPendingCollection(vocabulary, draft(rows, images), label);
  const settings = { ...defaultSettings('  Studio light, white wall  '), candidates: 3 };

  it('names every image by its upload id, and trims the name and the prompt', () => {
    const body = createCollectionBody({
      clientCollectionId: 'c-1',
      name: '  Summer 2027 ',
      language: 'en-US',
      settings,
      items: plan.items,
      uploadIds: ['u-a', 'u-b', 'u-c'],
    });
    expect(body).toEqual({
      client_collection_id: 'c-1',
      name: 'Summer 2027',
      language: 'en-US',
      settings: { ...settings, image_prompt: 'Studio light, white wall' },
      items: [
        {
          code: 'A1',
          name: 'Silk crêpe',
          fabric: plan.items[0]!.fabric,
          model_upload_ids: ['u-a'],
          pattern_upload_ids: ['u-b'],
        },
        { code: 'C3', name: 'Wool', fabric: plan.items[1]!.fabric, model_upload_ids: ['u-c'], pattern_upload_ids: [] },
      ],
    });
  });

  it('refuses while an image is not up, naming which', () => {
    const build = () =>
      createCollectionBody({
        clientCollectionId: 'c-1',
        name: 'x',
        language: 'zh-CN',
        settings,
        items: plan.items,
        uploadIds: ['u-a', null],
      });
    expect(build).toThrow(UploadsMissing);
    try {
      build();
    } catch (error) {
      expect((error as UploadsMissing).missing).toEqual([1, 2]);
    }
  });
});

describe('client collection ids', () => {
  it('are v4 UUIDs, with or without randomUUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newClientCollectionId()).toMatch(uuid);
    // Outside a secure context there is no randomUUID: only getRandomValues.
    const bare: Pick<Crypto, 'getRandomValues'> = { getRandomValues: (array) => crypto.getRandomValues(array) };
    const ids = new Set(Array.from({ length: 50 }, () => newClientCollectionId(bare)));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(uuid);
  });
});
