// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readSheetBytes } from '../../../src/workers/sheet-import/read-sheet';
import { SheetImportError } from '../../../src/workers/sheet-import/sheet-error';
import { buildTemplate, templateHeaders } from '../../../src/workers/sheet-import/template';
import { collectionVocabulary } from '../../../src/lib/collections/collection-vocabulary';
import { MAX_SHEET_BYTES, MAX_SHEET_ROWS } from '../../../src/lib/collections/sheet-fields';
import { encodeGb18030 } from './gb18030';

const utf8 = (text: string) => new TextEncoder().encode(text);
const withBom = (bytes: Uint8Array) => new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);

async function refusal(bytes: Uint8Array, name = 'sheet.csv'): Promise<SheetImportError> {
  try {
    await readSheetBytes(bytes, name);
  } catch (error) {
    if (error instanceof SheetImportError) return error;
    throw error;
  }
  throw new Error('the sheet was accepted');
}

describe('reading a sheet', () => {
  const chinese =
    '面料编号,面料名称,克重（g/m²）,透明度\r\nA12,真丝双绉,120,微透\r\nB7,棉麻混纺,"180",完全不透明\r\n';

  it('reads UTF-8 without a BOM', async () => {
    const sheet = await readSheetBytes(utf8(chinese), 'a.csv');
    expect(sheet).toMatchObject({ format: 'csv', encoding: 'utf-8', delimiter: ',' });
    expect(sheet.headers).toEqual(['面料编号', '面料名称', '克重（g/m²）', '透明度']);
    expect(sheet.rows).toEqual([
      { sheetRow: 2, cells: ['A12', '真丝双绉', '120', '微透'] },
      { sheetRow: 3, cells: ['B7', '棉麻混纺', '180', '完全不透明'] },
    ]);
  });

  it('reads UTF-8 with a BOM, the BOM not part of the first header', async () => {
    const sheet = await readSheetBytes(withBom(utf8(chinese)), 'a.csv');
    expect(sheet.encoding).toBe('utf-8');
    expect(sheet.headers[0]).toBe('面料编号');
  });

  it('reads GB18030 (GBK) as Chinese Excel and WPS write it', async () => {
    // GBK has no ², so Chinese Excel's own headers name the unit in words.
    const bytes = encodeGb18030(chinese.replace('g/m²', '克/平方米'));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    const sheet = await readSheetBytes(bytes, 'a.csv');
    expect(sheet.encoding).toBe('gb18030');
    expect(sheet.headers).toEqual(['面料编号', '面料名称', '克重（克/平方米）', '透明度']);
    expect(sheet.rows[1]!.cells).toEqual(['B7', '棉麻混纺', '180', '完全不透明']);
  });

  it('reads UTF-16 with a BOM (Excel\'s "Unicode text", tab-delimited)', async () => {
    const text = 'Code\tFabric name\nA12\tCrêpe de Chine\n';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i += 1) {
      bytes[2 + i * 2] = text.charCodeAt(i) & 0xff;
      bytes[3 + i * 2] = text.charCodeAt(i) >> 8;
    }
    const sheet = await readSheetBytes(bytes, 'a.txt');
    expect(sheet).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', headers: ['Code', 'Fabric name'] });
    expect(sheet.rows[0]!.cells).toEqual(['A12', 'Crêpe de Chine']);
  });

  it('guesses `;` (European Excel) and tab as the delimiter', async () => {
    const semicolon = await readSheetBytes(
      utf8('Code;Composition;Weight\nA12;"80% coton, 20% lin";120,5\n'),
      'a.csv',
    );
    expect(semicolon.delimiter).toBe(';');
    expect(semicolon.rows[0]!.cells).toEqual(['A12', '80% coton, 20% lin', '120,5']);
    const tab = await readSheetBytes(utf8('Code\tComposition\nA12\tSilk, 100%\n'), 'a.tsv');
    expect(tab.delimiter).toBe('\t');
    expect(tab.rows[0]!.cells).toEqual(['A12', 'Silk, 100%']);
  });

  it('keeps new lines inside quoted cells, and numbers rows as the sheet does', async () => {
    const sheet = await readSheetBytes(utf8('Code,Remarks\nA12,"line one\nline two"\nB7,plain\n'), 'a.csv');
    expect(sheet.rows).toEqual([
      { sheetRow: 2, cells: ['A12', 'line one\nline two'] },
      { sheetRow: 3, cells: ['B7', 'plain'] },
    ]);
  });

  it("skips blank rows, trailing ones and ones in the middle, keeping the others' row numbers", async () => {
    const sheet = await readSheetBytes(utf8('Code,Name,,\nA12,Silk,,\n,,,\nB7,Linen,,\n,,,\n\n\n'), 'a.csv');
    expect(sheet.headers).toEqual(['Code', 'Name']);
    expect(sheet.rows.map((r) => [r.sheetRow, r.cells[0]])).toEqual([
      [2, 'A12'],
      [4, 'B7'],
    ]);
  });

  it('reads the XLSX template back with its headers, in every language', async () => {
    const vocabulary = collectionVocabulary();
    for (const language of ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID'] as const) {
      const blob = await buildTemplate(vocabulary, language, 'xlsx');
      const sheet = await readSheetBytes(new Uint8Array(await blob.arrayBuffer()), 'template.xlsx');
      expect(sheet.format).toBe('xlsx');
      expect(sheet.headers).toEqual(templateHeaders(vocabulary, language));
      expect(sheet.rows).toEqual([]);
    }
  });

  it("numbers an XLSX's rows as the sheet does, across a blank row", async () => {
    const { default: writeXlsxFile } = await import('write-excel-file/universal');
    const blob = await writeXlsxFile([
      ['Code', 'Weight'],
      ['A12', 120],
      [null, null],
      ['B7', '95,5'],
    ]).toBlob();
    const sheet = await readSheetBytes(new Uint8Array(await blob.arrayBuffer()), 'season.xlsx');
    expect(sheet.rows).toEqual([
      { sheetRow: 2, cells: ['A12', '120'] },
      { sheetRow: 4, cells: ['B7', '95,5'] },
    ]);
  });

  it('refuses a workbook that would unpack past its bound, before unpacking it', async () => {
    const { zipSync, strToU8 } = await import('fflate');
    // A small part whose headers declare 60 MB, as a crafted workbook would.
    const bomb = zipSync({ 'xl/worksheets/sheet1.xml': strToU8('<worksheet/>') }, { level: 9 });
    const view = new DataView(bomb.buffer);
    const central = bomb.findIndex((_, i) => view.getUint32(i, true) === 0x02014b50);
    view.setUint32(22, 60 * 1024 * 1024, true);
    view.setUint32(central + 24, 60 * 1024 * 1024, true);
    expect(await refusal(bomb, 'bomb.xlsx')).toMatchObject({
      key: 'zipTooLarge',
      values: { name: 'bomb.xlsx', max: 50 },
    });
  });

  it("writes the CSV template as UTF-8 with a BOM, headers in the person's language", async () => {
    const blob = await buildTemplate(collectionVocabulary(), 'zh-CN', 'csv');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const sheet = await readSheetBytes(bytes, 'template.csv');
    expect(sheet.headers[0]).toBe('面料编号');
    // The form's 20 columns, then the 7 that override the collection's settings for one row.
    expect(sheet.headers).toHaveLength(27);
    expect(sheet.headers.slice(20)).toEqual(['图片提示词', '候选图数量', '暂停审核', '视频时长', '视频比例', '视频分辨率', '运镜']);
  });

  it('refuses what is not a sheet, naming what is wrong', async () => {
    expect(
      (await refusal(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'a.png')).key,
    ).toBe('notASheet');
    expect(
      (await refusal(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'old.xls')).key,
    ).toBe('xlsUnsupported');
    expect((await refusal(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'broken.xlsx')).key).toBe(
      'unreadable',
    );
    expect((await refusal(new Uint8Array([0x41, 0xff, 0xff, 0x42]), 'a.csv')).key).toBe('undecodable');
    expect((await refusal(utf8(',,\n\n'), 'a.csv')).key).toBe('empty');
    expect((await refusal(new Uint8Array(), 'a.csv')).key).toBe('empty');
  });

  it('refuses a sheet past its bounds before reading it, naming the bound', async () => {
    const large = await refusal(new Uint8Array(MAX_SHEET_BYTES + 1).fill(0x41), 'big.csv');
    expect(large.key).toBe('tooLarge');
    expect(large.values).toEqual({ name: 'big.csv', max: 5 });
    const rows = ['Code', ...Array.from({ length: MAX_SHEET_ROWS + 1 }, (_, i) => `C${i}`)].join('\n');
    const many = await refusal(utf8(rows), 'many.csv');
    expect(many.key).toBe('tooManyRows');
    expect(many.values).toEqual({ name: 'many.csv', count: MAX_SHEET_ROWS + 1, max: MAX_SHEET_ROWS });
    const exactly = ['Code', ...Array.from({ length: MAX_SHEET_ROWS }, (_, i) => `C${i}`), '', ''].join('\n');
    expect((await readSheetBytes(utf8(exactly), 'ok.csv')).rows).toHaveLength(MAX_SHEET_ROWS);
  });
});
