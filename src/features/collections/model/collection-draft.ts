// The preview table's state: the collection the sheet worker read, with its problems, as the
// person fixes cells in place or leaves rows out. A cell edit re-checks its row; an edit to the
// code or an image column, or a row left out or taken back, matches the images again first
// (codes and file names decide which row an image belongs to), and duplicate codes are compared
// again across rows.
import {
  checkCollection,
  duplicateProblems,
  rematch,
  rowProblems,
  type Collection,
  type Problem,
} from '../../../lib/collections/collection-check';
import { KEY_FIELD, isImageField } from '../../../lib/collections/sheet-fields';
import type { Vocabulary } from '../../../lib/collections/vocabulary';

export interface CollectionDraft {
  collection: Collection;
  problems: Problem[];
}

export function draftOf(vocabulary: Vocabulary, collection: Collection): CollectionDraft {
  return { collection, problems: checkCollection(vocabulary, collection) };
}

/** Problems in row order, with one row's replaced and duplicates compared again. */
function withRowRechecked(
  vocabulary: Vocabulary,
  draft: CollectionDraft,
  collection: Collection,
  index: number,
): CollectionDraft {
  const kept = draft.problems.filter((p) => p.row !== index && p.key !== 'duplicateCode');
  const own = rowProblems(vocabulary, collection, index);
  const merged = [...kept, ...own, ...duplicateProblems(collection)];
  // The order checkCollection gives: by row, a row's duplicate first, images that match no row last.
  const order = (p: Problem) =>
    (p.row === null ? Number.MAX_SAFE_INTEGER : p.row) * 2 + (p.key === 'duplicateCode' ? 0 : 1);
  merged.sort((a, b) => order(a) - order(b));
  return { collection, problems: merged };
}

export function editCell(
  vocabulary: Vocabulary,
  draft: CollectionDraft,
  index: number,
  column: number,
  value: string,
): CollectionDraft {
  const rows = draft.collection.rows.map((row, i) => {
    if (i !== index) return row;
    const cells = [...row.cells];
    while (cells.length <= column) cells.push('');
    cells[column] = value;
    return { ...row, cells };
  });
  const field = draft.collection.mapping[column];
  const changed = { ...draft.collection, rows };
  if (field === KEY_FIELD || isImageField(field)) return draftOf(vocabulary, rematch(vocabulary, changed));
  return withRowRechecked(vocabulary, draft, changed, index);
}

export function setExcluded(
  vocabulary: Vocabulary,
  draft: CollectionDraft,
  index: number,
  excluded: boolean,
): CollectionDraft {
  const rows = draft.collection.rows.map((row, i) => (i === index ? { ...row, excluded } : row));
  return draftOf(vocabulary, rematch(vocabulary, { ...draft.collection, rows }));
}

/** Rows ready to queue: not left out, with no error. */
export function readyRows(draft: CollectionDraft): number[] {
  const blocked = new Set(
    draft.problems.filter((p) => p.severity === 'error' && p.row !== null).map((p) => p.row),
  );
  return draft.collection.rows.flatMap((row, i) => (!row.excluded && !blocked.has(i) ? [i] : []));
}
