// A collection before anything is queued: the sheet's rows with their images, and every problem
// the preview table shows. Each problem names the row (its number in the sheet) and the column,
// and carries a message key under collections.problems. Errors keep a row out of the queue until
// it is fixed or left out; warnings only say how a cell will be read.
import { MAX_IMAGE_BYTES, type AcceptedImageType } from '../../../shared/images/image-types';
import {
  MAX_IMAGES_TOTAL,
  MAX_MODEL_IMAGES,
  MAX_PATTERN_IMAGES,
} from '../../../shared/generation/image-limits';
import { OTHER, type ChoiceField } from '../../../shared/fabric/fabric-fields';
import { keyColumn, type ColumnMapping } from './column-mapping';
import { codeKey, matchImages, type ImageName, type MatchRow, type MatchedImage } from './image-match';
import { readOverride, type OverrideProblemKey } from './override-values';
import {
  KEY_FIELD,
  MAX_WEIGHT,
  MIN_WEIGHT,
  isChoiceField,
  isImageField,
  isOverrideField,
  textLimit,
  type SheetField,
} from './sheet-fields';
import { presetOf, type ImageRole, type Vocabulary } from './vocabulary';

/** A sheet as read: its header row and its data rows, each with its row number in the sheet (1-based). */
export interface SheetTable {
  headers: string[];
  rows: { sheetRow: number; cells: string[] }[];
}

/** An image of the collection; `type` is what its first bytes say (null: none of the four), when they were read. */
export interface CollectionImage extends ImageName {
  type?: AcceptedImageType | null;
}

export interface CollectionRow {
  sheetRow: number;
  cells: string[];
  /** Left out by the person: not checked against others, not queued. */
  excluded: boolean;
  images: MatchedImage[];
  missingNames: { column: number; name: string }[];
}

export type ProblemKey =
  | 'codeMissing'
  | 'duplicateCode'
  | 'noImages'
  | 'imageNotFound'
  | 'tooManyModelImages'
  | 'tooManyPatternImages'
  | 'tooManyImages'
  | 'unknownPreset'
  | 'badWeight'
  | 'tooLong'
  | 'unmatchedImage'
  | 'notAnImage'
  | 'imageTooLarge'
  | OverrideProblemKey;

export interface Problem {
  key: ProblemKey;
  /** The i18n key of its message. */
  messageKey: `collections.problems.${ProblemKey}`;
  severity: 'error' | 'warning';
  /** Index into the collection's rows, or null for an image that matches no row. */
  row: number | null;
  /** The row's number in the sheet (the header is row 1), or null. */
  sheetRow: number | null;
  /** The column's index, or null when the problem is the row's as a whole. */
  column: number | null;
  /** The message's variables: row, column (the header's text) and the problem's own. */
  values: Record<string, string | number>;
}

export interface Collection {
  headers: string[];
  mapping: ColumnMapping;
  rows: CollectionRow[];
  images: CollectionImage[];
  /** Images that match no row (indexes into images). */
  unmatched: number[];
}

const WEIGHT = /^(\d+(?:[.,]\d+)?)\s*(g\/m2|gsm|g|gm2|g\/㎡|克\/平方米|克\/米2|克|grams?|gram)?$/i;

/** A weight cell's value in g/m² (spec §3), or null when it is not one. */
export function parseWeight(text: string): number | null {
  const m = WEIGHT.exec(text.normalize('NFKC').trim());
  if (!m) return null;
  const value = Number(m[1]!.replace(',', '.'));
  return value >= MIN_WEIGHT && value <= MAX_WEIGHT ? value : null;
}

const problem = (
  key: ProblemKey,
  severity: Problem['severity'],
  at: { row: number | null; sheetRow: number | null; column: number | null; header?: string },
  values: Record<string, string | number> = {},
): Problem => ({
  key,
  messageKey: `collections.problems.${key}`,
  severity,
  row: at.row,
  sheetRow: at.sheetRow,
  column: at.column,
  values: {
    ...(at.sheetRow !== null ? { row: at.sheetRow } : {}),
    ...(at.header !== undefined ? { column: at.header } : {}),
    ...values,
  },
});

const cell = (row: CollectionRow, column: number) => (row.cells[column] ?? '').trim();

function matchRows(collection: Pick<Collection, 'mapping' | 'rows'>): MatchRow[] {
  const key = keyColumn(collection.mapping);
  return collection.rows.map((row) => ({
    code: row.excluded || key < 0 ? '' : cell(row, key),
    imageCells: collection.mapping.flatMap((field, column) =>
      isImageField(field) && !row.excluded
        ? [
            {
              column,
              role: (field === 'model_images' ? 'model' : 'pattern') as ImageRole,
              text: cell(row, column),
            },
          ]
        : [],
    ),
  }));
}

/** The rows' images matched again (after a code, an image column or an excluded flag changed). */
export function rematch(vocabulary: Vocabulary, collection: Collection): Collection {
  const refs = matchImages(vocabulary, matchRows(collection), collection.images);
  return {
    ...collection,
    rows: collection.rows.map((row, i) => ({
      ...row,
      images: refs.rows[i]!,
      missingNames: refs.missingNames[i]!,
    })),
    unmatched: refs.unmatched,
  };
}

/** The collection a sheet, its mapping and its images make, images matched. */
export function buildCollection(
  vocabulary: Vocabulary,
  table: SheetTable,
  mapping: ColumnMapping,
  images: CollectionImage[],
): Collection {
  const rows = table.rows.map((r) => ({
    sheetRow: r.sheetRow,
    cells: r.cells,
    excluded: false,
    images: [],
    missingNames: [],
  }));
  return rematch(vocabulary, { headers: table.headers, mapping, rows, images, unmatched: [] });
}

/** One row's own problems: every check but duplicate codes, which compare rows. */
export function rowProblems(vocabulary: Vocabulary, collection: Collection, index: number): Problem[] {
  const row = collection.rows[index];
  if (!row || row.excluded) return [];
  const problems: Problem[] = [];
  const at = (column: number | null) => ({
    row: index,
    sheetRow: row.sheetRow,
    column,
    ...(column !== null ? { header: collection.headers[column] ?? '' } : {}),
  });
  const key = keyColumn(collection.mapping);
  const code = key >= 0 ? cell(row, key) : '';
  if (key >= 0 && !code) problems.push(problem('codeMissing', 'error', at(key)));

  collection.mapping.forEach((field: SheetField | null, column) => {
    const text = cell(row, column);
    if (!field || !text || field === KEY_FIELD || isImageField(field)) return;
    const max = textLimit(field);
    if (max !== undefined && text.length > max)
      problems.push(problem('tooLong', 'error', at(column), { max }));
    if (field === 'weight' && parseWeight(text) === null)
      problems.push(
        problem('badWeight', 'error', at(column), { value: text, min: MIN_WEIGHT, max: MAX_WEIGHT }),
      );
    if (isChoiceField(field) && !presetOf(vocabulary, field, text))
      problems.push(problem('unknownPreset', 'warning', at(column), { value: text }));
    // A bad override is an error: the row would run with settings the person did not mean.
    if (isOverrideField(field)) {
      const reading = readOverride(vocabulary.overrides, field, text);
      if (!reading.ok) problems.push(problem(reading.key, 'error', at(column), reading.values));
    }
  });

  for (const missing of row.missingNames)
    problems.push(problem('imageNotFound', 'error', at(missing.column), { name: missing.name }));
  const model = row.images.filter((m) => m.role === 'model').length;
  const pattern = row.images.length - model;
  const firstColumn = (role: ImageRole) => {
    const column = collection.mapping.indexOf(role === 'model' ? 'model_images' : 'pattern_images');
    return column >= 0 ? column : null;
  };
  if (code && row.images.length === 0 && row.missingNames.length === 0)
    problems.push(problem('noImages', 'error', at(null), { code }));
  if (model > MAX_MODEL_IMAGES)
    problems.push(
      problem('tooManyModelImages', 'error', at(firstColumn('model')), {
        count: model,
        max: MAX_MODEL_IMAGES,
      }),
    );
  if (pattern > MAX_PATTERN_IMAGES)
    problems.push(
      problem('tooManyPatternImages', 'error', at(firstColumn('pattern')), {
        count: pattern,
        max: MAX_PATTERN_IMAGES,
      }),
    );
  if (row.images.length > MAX_IMAGES_TOTAL)
    problems.push(
      problem('tooManyImages', 'error', at(null), { count: row.images.length, max: MAX_IMAGES_TOTAL }),
    );
  for (const match of row.images) problems.push(...imageProblems(collection, match.image, at(null)));
  return problems;
}

function imageProblems(collection: Collection, index: number, at: Parameters<typeof problem>[2]): Problem[] {
  const image = collection.images[index]!;
  const problems: Problem[] = [];
  if (image.type === null) problems.push(problem('notAnImage', 'error', at, { name: image.path }));
  if (image.size > MAX_IMAGE_BYTES)
    problems.push(
      problem('imageTooLarge', 'error', at, { name: image.path, max: MAX_IMAGE_BYTES / (1024 * 1024) }),
    );
  return problems;
}

/** Rows (not left out) whose code an earlier row already has: one problem per later row, naming the first. */
export function duplicateProblems(collection: Collection): Problem[] {
  const key = keyColumn(collection.mapping);
  if (key < 0) return [];
  const first = new Map<string, CollectionRow>();
  const problems: Problem[] = [];
  collection.rows.forEach((row, index) => {
    const code = cell(row, key);
    if (row.excluded || !code) return;
    const seen = first.get(codeKey(code));
    if (!seen) first.set(codeKey(code), row);
    else
      problems.push(
        problem(
          'duplicateCode',
          'error',
          { row: index, sheetRow: row.sheetRow, column: key, header: collection.headers[key] ?? '' },
          {
            code,
            first: seen.sheetRow,
          },
        ),
      );
  });
  return problems;
}

/** Every problem of the collection: per row in row order (duplicates with their row), then images that match no row. */
export function checkCollection(vocabulary: Vocabulary, collection: Collection): Problem[] {
  const duplicates = new Map<number, Problem[]>();
  for (const p of duplicateProblems(collection))
    duplicates.set(p.row!, [...(duplicates.get(p.row!) ?? []), p]);
  const problems: Problem[] = [];
  collection.rows.forEach((_row, index) => {
    problems.push(...(duplicates.get(index) ?? []), ...rowProblems(vocabulary, collection, index));
  });
  for (const index of collection.unmatched) {
    const image = collection.images[index]!;
    problems.push(
      problem('unmatchedImage', 'warning', { row: null, sheetRow: null, column: null }, { name: image.path }),
    );
  }
  return problems;
}

/** What one row gives the fabric form: its texts, and each choice as a preset or the person's own words (its overrides are no part of it). */
export function rowFabric(
  vocabulary: Vocabulary,
  collection: Collection,
  index: number,
): {
  code: string;
  text: Partial<Record<SheetField, string>>;
  choices: Partial<Record<ChoiceField, { choice: string; custom: string }>>;
} {
  const row = collection.rows[index]!;
  const text: Partial<Record<SheetField, string>> = {};
  const choices: Partial<Record<ChoiceField, { choice: string; custom: string }>> = {};
  collection.mapping.forEach((field, column) => {
    const value = cell(row, column);
    if (!field || !value || isImageField(field) || isOverrideField(field) || field === KEY_FIELD) return;
    if (isChoiceField(field)) {
      const preset = presetOf(vocabulary, field, value);
      choices[field] = preset ? { choice: preset, custom: '' } : { choice: OTHER, custom: value };
    } else text[field] = value;
  });
  const key = keyColumn(collection.mapping);
  return { code: key >= 0 ? cell(row, key) : '', text, choices };
}
