// Which field of the fabric form each column of a sheet fills. The guess reads the header names in
// any of the five languages; the person may correct it; validation says what still stops the
// import (no key column, a field chosen twice). A header signature names a sheet's layout, so a
// mapping the person corrected is offered again for the next sheet with the same headers.
import { KEY_FIELD, SHEET_FIELDS, mayRepeat, type SheetField } from './sheet-fields';
import type { Vocabulary } from './vocabulary';
import { normalizeWord } from './words';

/** One entry per column, in the sheet's order: the field it fills, or null when it is left out. */
export type ColumnMapping = (SheetField | null)[];

/** Each problem's message is collections.sheetErrors.<key>. */
export type MappingProblem =
  { key: 'noHeader' } | { key: 'noKeyColumn' } | { key: 'fieldTwice'; field: SheetField; columns: number[] };

/** The field a header names, or null. Exact words first, then a header that starts with one ("克重（g/m²）", "Model image 2"). */
export function guessField(vocabulary: Vocabulary, header: string): SheetField | null {
  const word = normalizeWord(header);
  if (!word) return null;
  const exact = vocabulary.headers.get(word);
  if (exact) return exact;
  // A trailing number ("Model image 2", "图片1") is an index, not part of the name.
  const bare = word.replace(/\d+$/, '');
  if (bare && bare !== word) {
    const numbered = vocabulary.headers.get(bare);
    if (numbered) return numbered;
  }
  let best: { field: SheetField; length: number } | null = null;
  for (const [known, field] of vocabulary.headers) {
    if (known.length < 2 || known.length <= (best?.length ?? 0)) continue;
    if (word.startsWith(known)) best = { field, length: known.length };
  }
  return best?.field ?? null;
}

/** The guessed mapping: each field goes to the first column that names it (image columns may repeat). */
export function guessMapping(vocabulary: Vocabulary, headers: readonly string[]): ColumnMapping {
  const taken = new Set<SheetField>();
  return headers.map((header) => {
    const field = guessField(vocabulary, header);
    if (!field || (taken.has(field) && !mayRepeat(field))) return null;
    taken.add(field);
    return field;
  });
}

/** What stops a mapping from being used; empty when it can be. */
export function mappingProblems(mapping: ColumnMapping): MappingProblem[] {
  const problems: MappingProblem[] = [];
  // No header names any field: the first row is data, or the sheet is not a collection's.
  if (mapping.every((f) => f === null)) problems.push({ key: 'noHeader' });
  if (!mapping.includes(KEY_FIELD)) problems.push({ key: 'noKeyColumn' });
  for (const field of SHEET_FIELDS) {
    if (mayRepeat(field)) continue;
    const columns = mapping.flatMap((f, i) => (f === field ? [i] : []));
    if (columns.length > 1) problems.push({ key: 'fieldTwice', field, columns });
  }
  return problems;
}

/** The mapping with one column changed; choosing a single-column field elsewhere takes it from its old column. */
export function setColumnField(
  mapping: ColumnMapping,
  column: number,
  field: SheetField | null,
): ColumnMapping {
  return mapping.map((f, i) => {
    if (i === column) return field;
    if (field && f === field && !mayRepeat(field)) return null;
    return f;
  });
}

/** The column that holds the key, or -1. */
export function keyColumn(mapping: ColumnMapping): number {
  return mapping.indexOf(KEY_FIELD);
}

/**
 * A short stable name for a sheet's layout: its normalized headers, hashed (FNV-1a, 32 bits, in
 * hex, with the column count). Two sheets with the same headers in the same order share it.
 */
export function headerSignature(headers: readonly string[]): string {
  let hash = 0x811c9dc5;
  const text = headers.map(normalizeWord).join('\u001f');
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${headers.length}-${hash.toString(16).padStart(8, '0')}`;
}

/** A remembered mapping, if it still fits the sheet's columns and holds only known fields. */
export function usableMapping(stored: unknown, columns: number): ColumnMapping | undefined {
  if (!Array.isArray(stored) || stored.length !== columns) return undefined;
  const fields = stored as unknown[];
  if (!fields.every((f) => f === null || (SHEET_FIELDS as readonly unknown[]).includes(f))) return undefined;
  return fields as ColumnMapping;
}
