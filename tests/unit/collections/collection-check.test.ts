// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { collectionVocabulary } from '../../../src/lib/collections/collection-vocabulary';
import {
  buildCollection,
  checkCollection,
  parseWeight,
  rowFabric,
  type CollectionImage,
  type Problem,
} from '../../../src/lib/collections/collection-check';
import { guessMapping } from '../../../src/lib/collections/column-mapping';
import {
  draftOf,
  editCell,
  readyRows,
  setExcluded,
} from '../../../src/features/collections/model/collection-draft';
import { MAX_IMAGE_BYTES } from '../../../shared/images/image-types';

const vocabulary = collectionVocabulary();
const headers = ['Code', 'Fabric name', 'Weight', 'Luster', 'Model images', 'Remarks'];
const table = (...rows: string[][]) => ({
  headers,
  rows: rows.map((cells, i) => ({ sheetRow: i + 2, cells })),
});
const img = (path: string, extra: Partial<CollectionImage> = {}): CollectionImage => ({
  path,
  size: 1000,
  type: 'image/jpeg',
  ...extra,
});
const brief = (problems: Problem[]) => problems.map((p) => [p.key, p.sheetRow, p.column, p.severity]);

function collection(rows: string[][], images: CollectionImage[]) {
  return buildCollection(vocabulary, table(...rows), guessMapping(vocabulary, headers), images);
}

describe('checking a collection', () => {
  it('passes a clean row, and reads its fabric form', () => {
    const c = collection(
      [['A12', 'Silk crêpe', '120 g/m²', '柔和光泽', '', 'Fair sample']],
      [img('A12_pattern.jpg'), img('A12_model.jpg')],
    );
    expect(checkCollection(vocabulary, c)).toEqual([]);
    expect(rowFabric(vocabulary, c, 0)).toEqual({
      code: 'A12',
      text: { fabric_name: 'Silk crêpe', weight: '120 g/m²', remarks: 'Fair sample' },
      choices: { luster: { choice: 'soft', custom: '' } },
    });
  });

  it('names the row and the column of each problem', () => {
    const images = [
      ...Array.from({ length: 7 }, (_, i) => img(`B7_model_${i + 1}.jpg`)),
      ...Array.from({ length: 4 }, (_, i) => img(`B7_pattern_${i + 1}.jpg`)),
      img('C3_pattern.jpg', { type: null }),
      img('D4_pattern.jpg', { size: MAX_IMAGE_BYTES + 1 }),
      img('ZZ_model.jpg'),
    ];
    const c = collection(
      [
        ['', 'No code', '', '', '', ''],
        ['B7', 'Linen', 'heavy', 'sparkly', '', ''],
        ['C3', 'Wool', '0', '', 'missing.jpg', 'x'.repeat(501)],
        ['b7', 'Again', '180gsm', '', '', ''],
        ['D4', 'Twill', '2,5 克', '', '', ''],
        ['E5', 'No images', '', '', '', ''],
      ],
      images,
    );
    const problems = checkCollection(vocabulary, c);
    expect(brief(problems)).toEqual([
      ['codeMissing', 2, 0, 'error'],
      ['badWeight', 3, 2, 'error'],
      ['unknownPreset', 3, 3, 'warning'],
      ['tooManyModelImages', 3, 4, 'error'],
      ['tooManyImages', 3, null, 'error'],
      ['badWeight', 4, 2, 'error'],
      ['tooLong', 4, 5, 'error'],
      ['imageNotFound', 4, 4, 'error'],
      ['notAnImage', 4, null, 'error'],
      ['duplicateCode', 5, 0, 'error'],
      ['noImages', 5, null, 'error'],
      ['imageTooLarge', 6, null, 'error'],
      ['noImages', 7, null, 'error'],
      ['unmatchedImage', null, null, 'warning'],
    ]);
    expect(problems.find((p) => p.key === 'duplicateCode')).toMatchObject({
      messageKey: 'collections.problems.duplicateCode',
      values: { row: 5, column: 'Code', code: 'b7', first: 3 },
    });
    expect(problems.find((p) => p.key === 'tooManyModelImages')!.values).toEqual({
      row: 3,
      column: 'Model images',
      count: 7,
      max: 6,
    });
    expect(problems.find((p) => p.key === 'tooManyImages')!.values).toEqual({ row: 3, count: 11, max: 10 });
    expect(problems.find((p) => p.key === 'unmatchedImage')!.values).toEqual({ name: 'ZZ_model.jpg' });
    expect(problems.find((p) => p.key === 'badWeight')!.values).toMatchObject({
      value: 'heavy',
      min: 1,
      max: 2000,
    });
  });

  it('reads a weight in g/m² with or without its unit, comma decimals and full-width digits', () => {
    for (const text of ['120', '120g/m²', '120 g/m2', '180gsm', '95,5', '２００克', '200 克/平方米', '1 g'])
      expect([text, parseWeight(text)]).not.toEqual([text, null]);
    for (const text of ['heavy', '0', '-5', '2001', '120 oz', '120kg'])
      expect([text, parseWeight(text)]).toEqual([text, null]);
  });
});

describe('fixing the preview in place', () => {
  const rows = [
    ['A12', 'Silk', 'heavy', '', '', ''],
    ['A12', 'Silk again', '', '', '', ''],
    ['C3', 'Wool', '', '', '', ''],
  ];
  const images = [img('A12_pattern.jpg'), img('C3_pattern.jpg'), img('D9_pattern.jpg')];

  it('re-checks a row when a cell is fixed', () => {
    const draft = draftOf(vocabulary, collection(rows, images));
    expect(brief(draft.problems)).toEqual([
      ['badWeight', 2, 2, 'error'],
      ['duplicateCode', 3, 0, 'error'],
      ['noImages', 3, null, 'error'],
      ['unmatchedImage', null, null, 'warning'],
    ]);
    expect(readyRows(draft)).toEqual([2]);
    const fixed = editCell(vocabulary, draft, 0, 2, '135');
    expect(brief(fixed.problems)).toEqual([
      ['duplicateCode', 3, 0, 'error'],
      ['noImages', 3, null, 'error'],
      ['unmatchedImage', null, null, 'warning'],
    ]);
    expect(readyRows(fixed)).toEqual([0, 2]);
  });

  it('matches the images again when a code is fixed', () => {
    const draft = editCell(vocabulary, draftOf(vocabulary, collection(rows, images)), 1, 0, 'D9');
    expect(brief(draft.problems)).toEqual([['badWeight', 2, 2, 'error']]);
    expect(draft.collection.rows[1]!.images.map((m) => images[m.image]!.path)).toEqual(['D9_pattern.jpg']);
  });

  it('leaves a row out: it is neither checked nor counted as a duplicate', () => {
    const draft = setExcluded(vocabulary, draftOf(vocabulary, collection(rows, images)), 1, true);
    expect(brief(draft.problems)).toEqual([
      ['badWeight', 2, 2, 'error'],
      ['unmatchedImage', null, null, 'warning'],
    ]);
    expect(readyRows(draft)).toEqual([2]);
    const back = setExcluded(vocabulary, draft, 1, false);
    expect(brief(back.problems)).toContainEqual(['duplicateCode', 3, 0, 'error']);
  });
});
