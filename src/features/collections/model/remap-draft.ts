// A corrected column mapping applied to the sheet as the person left it: their fixed cells and the
// rows they left out stay, the images are matched again and every row checked again. Runs on the
// page (no second trip through the worker), since the sheet is already read.
import { buildCollection, rematch } from '../../../lib/collections/collection-check';
import type { ColumnMapping } from '../../../lib/collections/column-mapping';
import type { Vocabulary } from '../../../lib/collections/vocabulary';
import { draftOf, type CollectionDraft } from './collection-draft';

export function remapDraft(vocabulary: Vocabulary, draft: CollectionDraft, mapping: ColumnMapping): CollectionDraft {
  const { collection } = draft;
  const rebuilt = buildCollection(
    vocabulary,
    { headers: collection.headers, rows: collection.rows.map((r) => ({ sheetRow: r.sheetRow, cells: r.cells })) },
    mapping,
    collection.images,
  );
  const rows = rebuilt.rows.map((row, i) => ({ ...row, excluded: collection.rows[i]?.excluded ?? false }));
  return draftOf(vocabulary, rematch(vocabulary, { ...rebuilt, rows }));
}
