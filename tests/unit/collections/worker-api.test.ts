// @vitest-environment node
// The worker's answers, from Files as the page hands them over: a picked folder (Files that keep
// their folder in webkitRelativePath, as a directory picker gives them) or a ZIP.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sheetImportApi } from '../../../src/workers/sheet-import/worker-api';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Array<number>(40).fill(1)]);
const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...new Array<number>(40).fill(2),
]);
const sheet = new File([strToU8('\ufeffCode,Fabric name\r\nA12,Silk\r\nB7,Linen\r\n')], 'season.csv', {
  type: 'text/csv',
});

function picked(path: string, bytes: Uint8Array): File {
  const file = new File([bytes as Uint8Array<ArrayBuffer>], path.slice(path.lastIndexOf('/') + 1));
  Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

describe('the sheet import worker', () => {
  it('imports a picked folder, sniffing each image and skipping system files', async () => {
    const files = [
      picked('Season/A12/model_1.jpg', JPEG),
      picked('Season/A12/pattern.png', PNG),
      picked('Season/B7_pattern.jpg', strToU8('not really a jpeg')),
      picked('Season/.DS_Store', strToU8('x')),
    ];
    const answer = await sheetImportApi.import({ sheet, images: { kind: 'folder', files } });
    if (!answer.ok) throw new Error(answer.key);
    expect(answer.imageFiles).toEqual([files[0], files[1], files[2]]);
    expect(answer.collection.images.map((i) => [i.path, i.type])).toEqual([
      ['Season/A12/model_1.jpg', 'image/jpeg'],
      ['Season/A12/pattern.png', 'image/png'],
      ['Season/B7_pattern.jpg', null],
    ]);
    expect(answer.problems.map((p) => [p.key, p.sheetRow, p.values.name])).toEqual([
      ['notAnImage', 3, 'Season/B7_pattern.jpg'],
    ]);
  });

  it("imports a ZIP, handing back its images as Files in the collection's order", async () => {
    const zip = new File(
      [zipSync({ 'A12_model_1.jpg': JPEG, 'b7/swatch.png': PNG }) as Uint8Array<ArrayBuffer>],
      'images.zip',
    );
    const answer = await sheetImportApi.import({ sheet, images: { kind: 'zip', file: zip } });
    if (!answer.ok) throw new Error(answer.key);
    expect(answer.problems).toEqual([]);
    expect(answer.imageFiles.map((f) => [f.name, f.type, f.size])).toEqual([
      ['A12_model_1.jpg', 'image/jpeg', JPEG.length],
      ['swatch.png', 'image/png', PNG.length],
    ]);
    expect(answer.collection.images.map((i) => i.path)).toEqual(['A12_model_1.jpg', 'b7/swatch.png']);
  });

  it('answers a refused sheet or archive with the message key and its values', async () => {
    const xls = new File([new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])], 'old.xls');
    expect(await sheetImportApi.import({ sheet: xls, images: { kind: 'none' } })).toEqual({
      ok: false,
      key: 'xlsUnsupported',
      messageKey: 'collections.sheetErrors.xlsUnsupported',
      values: { name: 'old.xls' },
    });
    const broken = new File([strToU8('PK but not a zip')], 'images.zip');
    expect(await sheetImportApi.import({ sheet, images: { kind: 'zip', file: broken } })).toMatchObject({
      ok: false,
      key: 'zipUnreadable',
      values: { name: 'images.zip' },
    });
  });

  it('writes the template in the language asked for', async () => {
    const csv = await sheetImportApi.template('th-TH', 'csv');
    expect((await csv.text()).replace(/^\ufeff/, '').split(',')[0]).toBe('รหัสผ้า');
    expect((await sheetImportApi.template('vi-VN', 'xlsx')).type).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
  });
});
