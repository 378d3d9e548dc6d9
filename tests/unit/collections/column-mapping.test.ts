// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { collectionVocabulary } from '../../../src/lib/collections/collection-vocabulary';
import {
  guessField,
  guessMapping,
  headerSignature,
  mappingProblems,
  setColumnField,
  usableMapping,
} from '../../../src/lib/collections/column-mapping';
import { SHEET_FIELDS } from '../../../src/lib/collections/sheet-fields';
import { presetOf } from '../../../src/lib/collections/vocabulary';
import { templateHeaders } from '../../../src/workers/sheet-import/template';
import { SUPPORTED_LANGUAGES } from '../../../shared/i18n/languages';

const vocabulary = collectionVocabulary();

describe('guessing the column mapping', () => {
  it('maps every template header to its field, in all five languages', () => {
    for (const language of SUPPORTED_LANGUAGES)
      expect(guessMapping(vocabulary, templateHeaders(vocabulary, language))).toEqual([...SHEET_FIELDS]);
  });

  it('reads synonyms in each language, whatever their case, width and punctuation', () => {
    const cases: [string, string][] = [
      ['Article No.', 'code'],
      ['FABRIC_CODE', 'code'],
      ['ｆａｂｒｉｃ　ｃｏｄｅ', 'code'],
      ['SKU', 'code'],
      ['面料编号', 'code'],
      ['货号', 'code'],
      ['Mã hàng', 'code'],
      ['MA HANG', 'code'],
      ['รหัสสินค้า', 'code'],
      ['Kode Barang', 'code'],
      ['GSM', 'weight'],
      ['克重（g/m²）', 'weight'],
      ['克重(g/m2)', 'weight'],
      ['Định lượng (g/m²)', 'weight'],
      ['น้ำหนัก (g/m²)', 'weight'],
      ['Gramasi', 'weight'],
      ['Fabric content', 'composition'],
      ['成份', 'composition'],
      ['Chất liệu', 'composition'],
      ['Transparency', 'transparency'],
      ['透明度', 'transparency'],
      ['ความโปร่งแสง', 'transparency'],
      ['Ketebalan', 'thickness'],
      ['Model image 2', 'model_images'],
      ['模特图1', 'model_images'],
      ['Swatch', 'pattern_images'],
      ['Ảnh hoa văn', 'pattern_images'],
      ['Notes', 'remarks'],
      ['hello', ''],
    ];
    for (const [header, field] of cases)
      expect([header, guessField(vocabulary, header) ?? '']).toEqual([header, field]);
  });

  it('gives a field to its first column only, but lets image columns repeat', () => {
    expect(guessMapping(vocabulary, ['Code', 'Article', 'Model image 1', 'Model image 2', 'Size'])).toEqual([
      'code',
      null,
      'model_images',
      'model_images',
      null,
    ]);
  });

  it('says what stops a mapping: no header, no key column, a field on two columns', () => {
    expect(mappingProblems([null, null])).toEqual([{ key: 'noHeader' }, { key: 'noKeyColumn' }]);
    expect(mappingProblems(['fabric_name', null])).toEqual([{ key: 'noKeyColumn' }]);
    expect(mappingProblems(['code', 'weight', 'weight'])).toEqual([
      { key: 'fieldTwice', field: 'weight', columns: [1, 2] },
    ]);
    expect(mappingProblems(['code', 'model_images', 'model_images'])).toEqual([]);
  });

  it('lets the person correct it: a single-column field moves to the column chosen', () => {
    expect(setColumnField(['code', 'fabric_name', null], 2, 'code')).toEqual([null, 'fabric_name', 'code']);
    expect(setColumnField(['code', null], 1, 'pattern_images')).toEqual(['code', 'pattern_images']);
    expect(setColumnField(['code', 'remarks'], 1, null)).toEqual(['code', null]);
  });

  it('names a layout by its headers, and keeps a remembered mapping only while it fits', () => {
    expect(headerSignature(['Code', 'Fabric name'])).toBe(headerSignature(['CODE', 'fabric_name']));
    expect(headerSignature(['Code', 'Fabric name'])).not.toBe(headerSignature(['Fabric name', 'Code']));
    expect(usableMapping(['code', null], 2)).toEqual(['code', null]);
    expect(usableMapping(['code', null], 3)).toBeUndefined();
    expect(usableMapping(['code', 'colour'], 2)).toBeUndefined();
    expect(usableMapping('code', 1)).toBeUndefined();
  });
});

describe('preset words', () => {
  it('accepts each preset in all five languages and by its key', () => {
    const cases: [Parameters<typeof presetOf>[1], string, string][] = [
      ['transparency', 'Completely opaque', 'opaque'],
      ['transparency', '微透', 'slightly'],
      ['transparency', 'Hơi trong suốt', 'slightly'],
      ['transparency', 'โปร่งแสงมาก', 'highly'],
      ['transparency', 'sangat transparan', 'highly'],
      ['luster', 'MIRROR-LIKE', 'mirror'],
      ['luster', '无光泽', 'none'],
      ['drape', 'Jatuhan sedang', 'medium'],
      ['touch', 'Thô ráp', 'rough'],
      ['touch', 'soft and skin friendly', 'soft'],
      ['thickness', '极薄', 'extremelyThin'],
      ['thickness', 'veryThick', 'veryThick'],
    ];
    for (const [field, word, key] of cases)
      expect([word, presetOf(vocabulary, field, word)]).toEqual([word, key]);
    expect(presetOf(vocabulary, 'luster', 'sparkly')).toBeUndefined();
  });
});
