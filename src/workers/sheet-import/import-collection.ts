// One import, from bytes already read: the sheet parsed, the mapping guessed (or the one given
// used), the images matched to rows and every row checked. The worker reads the Files and calls
// this; tests and the benchmark call it directly.
import {
  buildCollection,
  checkCollection,
  type CollectionImage,
} from '../../lib/collections/collection-check';
import {
  guessMapping,
  headerSignature,
  mappingProblems,
  usableMapping,
  type ColumnMapping,
} from '../../lib/collections/column-mapping';
import { MAX_COLLECTION_IMAGES } from '../../lib/collections/sheet-fields';
import type { Vocabulary } from '../../lib/collections/vocabulary';
import type { ImportedSheet } from './protocol';
import { readSheetBytes } from './read-sheet';
import { SheetImportError } from './sheet-error';

export interface ImportInput {
  sheetName: string;
  sheetBytes: Uint8Array;
  images: CollectionImage[];
  mapping?: ColumnMapping;
}

export interface ImportTimings {
  parseMs: number;
  mapMs: number;
  matchMs: number;
  checkMs: number;
}

export async function importCollection(
  vocabulary: Vocabulary,
  input: ImportInput,
  timings?: ImportTimings,
): Promise<ImportedSheet> {
  if (input.images.length > MAX_COLLECTION_IMAGES)
    throw new SheetImportError('tooManyImages', { count: input.images.length, max: MAX_COLLECTION_IMAGES });
  let t = performance.now();
  const lap = (key: keyof ImportTimings) => {
    const now = performance.now();
    if (timings) timings[key] = now - t;
    t = now;
  };
  const sheet = await readSheetBytes(input.sheetBytes, input.sheetName);
  lap('parseMs');
  const guessedMapping = guessMapping(vocabulary, sheet.headers);
  const mapping = usableMapping(input.mapping, sheet.headers.length) ?? guessedMapping;
  lap('mapMs');
  const collection = buildCollection(vocabulary, sheet, mapping, input.images);
  lap('matchMs');
  const problems = checkCollection(vocabulary, collection);
  lap('checkMs');
  return {
    format: sheet.format,
    ...(sheet.encoding ? { encoding: sheet.encoding } : {}),
    ...(sheet.delimiter ? { delimiter: sheet.delimiter } : {}),
    signature: headerSignature(sheet.headers),
    guessedMapping,
    mapping,
    mappingProblems: mappingProblems(mapping),
    collection,
    problems,
  };
}
