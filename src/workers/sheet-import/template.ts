// The sheet template a person downloads: one header row in their language, every field of the
// form, then the optional columns that override the collection's settings for one row. CSV is UTF-8 with a BOM, so Excel opens it as UTF-8 rather than the system's code page;
// XLSX is written by write-excel-file.
import Papa from 'papaparse';
import { SHEET_FIELDS } from '../../lib/collections/sheet-fields';
import type { Vocabulary } from '../../lib/collections/vocabulary';
import type { Language } from '../../../shared/i18n/languages';

export type TemplateFormat = 'csv' | 'xlsx';

export const TEMPLATE_TYPES: Record<TemplateFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function templateHeaders(vocabulary: Vocabulary, language: Language): string[] {
  return SHEET_FIELDS.map((field) => vocabulary.templateHeaders[language][field]);
}

export async function buildTemplate(
  vocabulary: Vocabulary,
  language: Language,
  format: TemplateFormat,
): Promise<Blob> {
  const headers = templateHeaders(vocabulary, language);
  if (format === 'csv') {
    const text = `\ufeff${Papa.unparse([headers], { newline: '\r\n' })}\r\n`;
    return new Blob([text], { type: TEMPLATE_TYPES.csv });
  }
  // The writer loads on the first XLSX template only (its own chunk of the worker).
  const { default: writeXlsxFile } = await import('write-excel-file/universal');
  const blob = await writeXlsxFile([headers.map((value) => ({ value, fontWeight: 'bold' as const }))], {
    columns: headers.map((h) => ({ width: Math.max(12, Math.min(40, h.length + 4)) })),
    stickyRowsCount: 1,
  }).toBlob();
  return new Blob([blob], { type: TEMPLATE_TYPES.xlsx });
}
