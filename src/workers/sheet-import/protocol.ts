// The sheet import worker's messages (src/workers/sheet-import.worker.ts, over comlink).
//
// import(request) → ImportAnswer
//   request: the sheet (a File), the images (a picked or dropped folder as Files whose
//   webkitRelativePath keeps their folders, a ZIP as one File, or none yet), and the column
//   mapping to use (one the person corrected or one remembered for this header signature);
//   without one, the guess is used.
//   answer, ok: the sheet's headers and rows (with their sheet row numbers), the guessed and the
//   used mapping with what is wrong with it, the header signature (the key a corrected mapping is
//   remembered under), the collection (rows with their matched images, images that match no row),
//   every problem, and the image Files in the collection's image order (a ZIP's entries unpacked;
//   their paths are the collection's images' paths).
//   answer, refused: the key of the message that says why (collections.sheetErrors.*) and its
//   values; nothing is queued.
//
// template(language, format) → Blob: the template sheet, headers in that language.
import type { Collection, Problem } from '../../lib/collections/collection-check';
import type { ColumnMapping, MappingProblem } from '../../lib/collections/column-mapping';
import type { SheetEncoding } from './read-sheet';
import type { SheetErrorKey } from './sheet-error';
import type { TemplateFormat } from './template';

export type { TemplateFormat };

export type ImageSource =
  | { kind: 'none' }
  /** paths: each file's path inside the folder when its webkitRelativePath does not say (a dropped folder). */
  | { kind: 'folder'; files: File[]; paths?: string[] }
  | { kind: 'zip'; file: File };

export interface ImportRequest {
  sheet: File;
  images: ImageSource;
  mapping?: ColumnMapping;
}

export interface ImportedSheet {
  format: 'csv' | 'xlsx';
  encoding?: SheetEncoding;
  delimiter?: string;
  signature: string;
  guessedMapping: ColumnMapping;
  mapping: ColumnMapping;
  mappingProblems: MappingProblem[];
  collection: Collection;
  problems: Problem[];
}

export type ImportAnswer =
  | ({ ok: true; imageFiles: File[] } & ImportedSheet)
  | {
      ok: false;
      key: SheetErrorKey;
      messageKey: `collections.sheetErrors.${SheetErrorKey}`;
      values: Record<string, string | number>;
    };
