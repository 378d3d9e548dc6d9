import { describe, expect, it } from 'vitest';
import { escapeCsvField, manifestCsv } from '../../../src/lib/zip/manifest-csv';

/** A small RFC 4180 reader, enough to prove the writer's output parses back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  return rows;
}

describe('manifest.csv', () => {
  it('quotes commas, quotes and line breaks and doubles inner quotes', () => {
    expect(escapeCsvField('plain.png')).toBe('plain.png');
    expect(escapeCsvField('a,b.png')).toBe('"a,b.png"');
    expect(escapeCsvField('say "hi".png')).toBe('"say ""hi"".png"');
    expect(escapeCsvField('two\nlines')).toBe('"two\nlines"');
  });

  it('defuses spreadsheet formulas', () => {
    expect(escapeCsvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(escapeCsvField('-1.png')).toBe("'-1.png");
  });

  it('writes a BOM, a header and one CRLF row per result that parse back to the inputs', () => {
    const csv = manifestCsv([
      {
        sourceName: '布料, "红".jpg',
        outputName: '布料, _红_.png',
        modelName: 'up2x-denoise2x',
        scale: 2,
        width: 2048,
        height: 1536,
        sizeBytes: 1234567,
        durationMs: 3210.6,
      },
    ]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(csv.slice(1));
    expect(rows).toEqual([
      ['source_name', 'output_name', 'model', 'scale', 'width', 'height', 'size_bytes', 'duration_ms'],
      ['布料, "红".jpg', '布料, _红_.png', 'up2x-denoise2x', '2', '2048', '1536', '1234567', '3211'],
    ]);
  });
});
