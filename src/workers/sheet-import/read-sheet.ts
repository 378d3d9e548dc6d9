// Reads a sheet's bytes into its header row and data rows: CSV (papaparse) or XLSX
// (read-excel-file), as Excel, WPS and Google Sheets export them.
// - The format comes from the first bytes: a ZIP container is a workbook, an OLE one an old .xls
//   (refused with a word on how to save it), anything else text.
// - Text is UTF-8 (with or without a BOM), UTF-16 with a BOM (Excel's "Unicode text"), or else
//   GB18030, which Chinese Excel and WPS write (a superset of GBK): UTF-8 is tried strictly first.
// - The delimiter is the header line's, among `,`, `;` (European Excel), tab and `|`; quoted cells may hold
//   new lines; blank rows are skipped but keep their numbers, so a problem names the sheet's row.
import { unzipSync } from 'fflate';
import Papa from 'papaparse';
import {
  MAX_SHEET_BYTES,
  MAX_SHEET_ROWS,
  MAX_SHEET_UNPACKED_BYTES,
  MAX_ZIP_RATIO,
} from '../../lib/collections/sheet-fields';
import type { SheetTable } from '../../lib/collections/collection-check';
import { MB, SheetImportError } from './sheet-error';

export type SheetEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';

export interface ReadSheet extends SheetTable {
  format: 'csv' | 'xlsx';
  encoding?: SheetEncoding;
  delimiter?: string;
}

const startsWith = (bytes: Uint8Array, head: readonly number[]) => head.every((b, i) => bytes[i] === b);

/** The sheet's text and the encoding it was read in. */
export function decodeSheetText(bytes: Uint8Array, name: string): { text: string; encoding: SheetEncoding } {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf]))
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  if (startsWith(bytes, [0xff, 0xfe]))
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (startsWith(bytes, [0xfe, 0xff]))
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  // Text has no NUL bytes; a binary file that is neither workbook kind is not a sheet.
  if (bytes.subarray(0, 4096).includes(0)) throw new SheetImportError('notASheet', { name });
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    try {
      return { text: new TextDecoder('gb18030', { fatal: true }).decode(bytes), encoding: 'gb18030' };
    } catch {
      throw new SheetImportError('undecodable', { name });
    }
  }
}

/** Rows of cells, the first non-blank one the header; each data row keeps its 1-based row number. */
function tableOf(records: readonly (readonly string[])[], name: string): SheetTable {
  const blank = (cells: readonly string[]) => cells.every((c) => c.trim() === '');
  const headerAt = records.findIndex((r) => !blank(r));
  if (headerAt < 0) throw new SheetImportError('empty', { name });
  const headers = records[headerAt]!.map((h) => h.trim());
  // Trailing empty header cells (a sheet's used range reaching past its last column) are not columns.
  while (headers.length > 0 && headers[headers.length - 1] === '') headers.pop();
  const rows: SheetTable['rows'] = [];
  for (let i = headerAt + 1; i < records.length; i += 1) {
    const cells = records[i]!;
    if (blank(cells)) continue;
    if (rows.length === MAX_SHEET_ROWS)
      throw new SheetImportError('tooManyRows', {
        name,
        count: records.slice(headerAt + 1).filter((r) => !blank(r)).length,
        max: MAX_SHEET_ROWS,
      });
    rows.push({ sheetRow: i + 1, cells: cells.map((c) => c.trim()) });
  }
  return { headers, rows };
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * The delimiter the header line uses most (headers seldom hold one, and never a new line), `,`
 * when it holds none. Read from the header rather than guessed from the data, where cells like
 * "80% coton, 20% lin" or "120,5" would mislead a count.
 */
export function headerDelimiter(text: string): string {
  const line = /^[^\r\n]*\S[^\r\n]*/m.exec(text)?.[0] ?? '';
  let best: string = ',';
  let most = 0;
  for (const delimiter of DELIMITERS) {
    const count = line.split(delimiter).length - 1;
    if (count > most) {
      best = delimiter;
      most = count;
    }
  }
  return best;
}

export function parseCsv(text: string, name: string): ReadSheet & { delimiter: string } {
  const delimiter = headerDelimiter(text);
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false });
  return { ...tableOf(parsed.data, name), format: 'csv', delimiter };
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

/**
 * A workbook is a ZIP of XML: its parts' declared sizes are read (nothing is unpacked) and a
 * workbook that would unpack past the bound, or a part past the ZIP bomb ratio, is refused before
 * the reader inflates it.
 */
function checkWorkbookSize(bytes: Uint8Array, name: string): void {
  let unpacked = 0;
  try {
    unzipSync(bytes, {
      filter(file) {
        unpacked += file.originalSize;
        if (unpacked > MAX_SHEET_UNPACKED_BYTES)
          throw new SheetImportError('zipTooLarge', { name, max: MAX_SHEET_UNPACKED_BYTES / MB });
        // XML compresses well, but not a thousandfold.
        if (file.compression !== 0 && file.originalSize > 10 * MAX_ZIP_RATIO * Math.max(file.size, 1))
          throw new SheetImportError('zipBomb', { name, entry: file.name, ratio: 10 * MAX_ZIP_RATIO });
        return false;
      },
    });
  } catch (error) {
    if (error instanceof SheetImportError) throw error;
    throw new SheetImportError('unreadable', { name });
  }
}

export async function readSheetBytes(bytes: Uint8Array, name: string): Promise<ReadSheet> {
  if (bytes.length > MAX_SHEET_BYTES)
    throw new SheetImportError('tooLarge', { name, max: MAX_SHEET_BYTES / MB });
  if (bytes.length === 0) throw new SheetImportError('empty', { name });
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) throw new SheetImportError('xlsUnsupported', { name });
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    checkWorkbookSize(bytes, name);
    let data: unknown[][];
    try {
      // The reader loads with the first workbook only (its own chunk of the worker).
      const { readSheet: readXlsxSheet } = await import('read-excel-file/universal');
      data = (await readXlsxSheet(bytes.slice().buffer)) as unknown[][];
    } catch {
      throw new SheetImportError('unreadable', { name });
    }
    return {
      ...tableOf(
        data.map((row) => row.map(cellText)),
        name,
      ),
      format: 'xlsx',
    };
  }
  const { text, encoding } = decodeSheetText(bytes, name);
  return { ...parseCsv(text, name), encoding };
}
