// manifest.csv inside the batch ZIP: one row per upscaled image. RFC 4180 quoting, CRLF line
// ends and a UTF-8 byte-order mark so spreadsheet apps read Chinese or Thai names correctly.
// No imports, so the worker, the page and the Node benchmark share it as is.

export interface ManifestRow {
  sourceName: string;
  outputName: string;
  modelName: string;
  scale: number;
  width: number;
  height: number;
  sizeBytes: number;
  durationMs: number;
}

export const MANIFEST_HEADER = [
  'source_name',
  'output_name',
  'model',
  'scale',
  'width',
  'height',
  'size_bytes',
  'duration_ms',
] as const;

const BOM = '\uFEFF';

/** Quotes a field when it holds a quote, comma or line break; doubles inner quotes. */
export function escapeCsvField(value: string): string {
  // A leading =, +, -, @ or tab makes spreadsheets run the cell as a formula (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function numberField(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value)) : '';
}

export function manifestCsv(rows: readonly ManifestRow[]): string {
  const lines = [MANIFEST_HEADER.join(',')];
  for (const row of rows) {
    lines.push(
      [
        escapeCsvField(row.sourceName),
        escapeCsvField(row.outputName),
        escapeCsvField(row.modelName),
        numberField(row.scale),
        numberField(row.width),
        numberField(row.height),
        numberField(row.sizeBytes),
        numberField(row.durationMs),
      ].join(','),
    );
  }
  return `${BOM}${lines.join('\r\n')}\r\n`;
}
