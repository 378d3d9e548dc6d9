// The import's state on the page: the chosen sheet and images, read by the sheet worker; the column
// mapping (guessed, or the one this person confirmed for sheets with these headers, and remembered
// again when they change it); the preview's draft as cells are fixed and rows left out.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CollectionSettings } from '../../../../shared/collections/collection-types';
import { collectionVocabulary } from '../../../lib/collections/collection-vocabulary';
import {
  mappingProblems,
  setColumnField,
  usableMapping,
  type ColumnMapping,
  type MappingProblem,
} from '../../../lib/collections/column-mapping';
import type { SheetField } from '../../../lib/collections/sheet-fields';
import {
  deleteWorkingImport,
  patchWorkingImport,
  readWorkingImport,
  writeWorkingImport,
} from '../../../lib/db/collection-draft-store';
import { readColumnMapping, writeColumnMapping } from '../../../lib/db/collection-mapping-store';
import { importSheet } from '../../../lib/workers/sheet-import-bridge';
import type { ImageSource } from '../../../workers/sheet-import/protocol';
import { draftOf, editCell, setExcluded, type CollectionDraft } from '../model/collection-draft';
import { remapDraft } from '../model/remap-draft';

export interface ImportedCollection {
  format: 'csv' | 'xlsx';
  signature: string;
  guessedMapping: ColumnMapping;
  mapping: ColumnMapping;
  mappingProblems: MappingProblem[];
  /** The mapping came from this person's last sheet with the same headers. */
  remembered: boolean;
  draft: CollectionDraft;
  /** The image Files in the collection's image order. */
  imageFiles: File[];
}

export type ImportState =
  | { status: 'idle' }
  | { status: 'reading' }
  | { status: 'refused'; messageKey: string; values: Record<string, string | number> }
  | { status: 'failed'; message: string }
  | ({ status: 'ready' } & ImportedCollection);

/** The person's work on an import read back after a reload. */
interface Restore {
  mapping: (string | null)[] | null;
  rows: { cells: string[]; excluded: boolean }[] | null;
}

export function useSheetImport(userKey: string | null) {
  const [sheet, setSheetFile] = useState<File | null>(null);
  const [images, setImageSource] = useState<ImageSource>({ kind: 'none' });
  const [state, setState] = useState<ImportState>({ status: 'idle' });
  const run = useRef(0);
  const vocabulary = collectionVocabulary();

  const read = useCallback(
    async (nextSheet: File | null, nextImages: ImageSource, restore?: Restore) => {
      const mine = ++run.current;
      if (!nextSheet) {
        setState({ status: 'idle' });
        return;
      }
      setState({ status: 'reading' });
      try {
        const answer = await importSheet({ sheet: nextSheet, images: nextImages });
        if (mine !== run.current) return;
        if (!answer.ok) {
          setState({ status: 'refused', messageKey: answer.messageKey, values: answer.values });
          return;
        }
        let draft = draftOf(vocabulary, answer.collection);
        let mapping = answer.mapping;
        let remembered = false;
        const stored = userKey ? await readColumnMapping(userKey, answer.signature).catch(() => undefined) : undefined;
        const usable = usableMapping(stored?.fields, answer.collection.headers.length);
        if (usable && usable.some((field, i) => field !== mapping[i])) {
          mapping = usable;
          draft = remapDraft(vocabulary, draft, mapping);
          remembered = true;
        } else if (usable) remembered = true;
        // After a reload: the mapping, fixed cells and rows left out as the person left them.
        const restoredMapping = usableMapping(restore?.mapping, answer.collection.headers.length);
        const restoredRows = restore?.rows?.length === answer.collection.rows.length ? restore.rows : null;
        if (restoredMapping || restoredRows) {
          mapping = restoredMapping ?? mapping;
          const rows = answer.collection.rows.map((row, i) => ({
            ...row,
            cells: restoredRows?.[i]?.cells ?? row.cells,
            excluded: restoredRows?.[i]?.excluded ?? false,
          }));
          draft = remapDraft(vocabulary, { collection: { ...answer.collection, rows }, problems: [] }, mapping);
          remembered = false;
        }
        if (mine !== run.current) return;
        setState({
          status: 'ready',
          format: answer.format,
          signature: answer.signature,
          guessedMapping: answer.guessedMapping,
          mapping,
          mappingProblems: mappingProblems(mapping),
          remembered,
          draft,
          imageFiles: answer.imageFiles,
        });
      } catch (error) {
        if (mine === run.current) setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    },
    [userKey, vocabulary],
  );

  // The name and the settings the flow keeps with the import, and what a reload restored of them.
  const kept = useRef<{ name: string; settings: CollectionSettings | null }>({ name: '', settings: null });
  /** The kept import has been looked for (and put back when there was one). */
  const [checked, setChecked] = useState(false);
  const [restored, setRestored] = useState<{ name: string; settings: CollectionSettings | null } | null>(null);

  // The latest choice of each, so a drop that brings both reads them together.
  const chosen = useRef<{ sheet: File | null; images: ImageSource }>({ sheet: null, images: { kind: 'none' } });

  /** A new sheet, new images, or both (a drop); the sheet is read again with what is chosen now. */
  const choose = useCallback(
    (next: { sheet?: File | null; images?: ImageSource }) => {
      const merged = {
        sheet: next.sheet !== undefined ? next.sheet : chosen.current.sheet,
        images: next.images ?? chosen.current.images,
      };
      chosen.current = merged;
      setSheetFile(merged.sheet);
      setImageSource(merged.images);
      void read(merged.sheet, merged.images);
      // Kept at once: a reload reads the same files again (the work on the last ones starts over).
      if (userKey)
        void writeWorkingImport({
          userKey,
          savedAt: Date.now(),
          sheet: merged.sheet,
          // A stored File keeps its name, not its folder: the paths are kept beside the files.
          images:
            merged.images.kind === 'folder' && !merged.images.paths
              ? { ...merged.images, paths: merged.images.files.map((f) => f.webkitRelativePath || f.name) }
              : merged.images,
          mapping: null,
          rows: null,
          name: kept.current.name,
          settings: kept.current.settings,
        }).catch(() => undefined);
    },
    [read, userKey],
  );

  // After a reload: the import as it was (its files read again, the person's work put back).
  useEffect(() => {
    if (!userKey) return;
    let alive = true;
    void readWorkingImport(userKey)
      .catch(() => undefined)
      .then((working) => {
        if (alive) setChecked(true);
        if (!alive || !working || chosen.current.sheet) return;
        kept.current = { name: working.name, settings: working.settings };
        setRestored({ name: working.name, settings: working.settings });
        chosen.current = { sheet: working.sheet, images: working.images };
        setSheetFile(working.sheet);
        setImageSource(working.images);
        void read(working.sheet, working.images, { mapping: working.mapping, rows: working.rows });
      });
    return () => {
      alive = false;
    };
  }, [read, userKey]);

  /** The flow's name and settings, kept with the import. */
  const keep = useCallback(
    (values: { name: string; settings: CollectionSettings }) => {
      kept.current = values;
      if (userKey) void patchWorkingImport(userKey, values).catch(() => undefined);
    },
    [userKey],
  );

  // The person's work on the rows, kept shortly after each change.
  const ready = state.status === 'ready' ? state : null;
  useEffect(() => {
    if (!userKey || !ready) return;
    const timer = window.setTimeout(() => {
      void patchWorkingImport(userKey, {
        mapping: ready.mapping,
        rows: ready.draft.collection.rows.map((r) => ({ cells: r.cells, excluded: r.excluded })),
      }).catch(() => undefined);
    }, 250);
    return () => window.clearTimeout(timer);
  }, [ready, userKey]);

  const setSheet = useCallback((file: File | null) => choose({ sheet: file }), [choose]);
  const setImages = useCallback((source: ImageSource) => choose({ images: source }), [choose]);

  const changeReady = useCallback((change: (ready: ImportedCollection) => ImportedCollection) => {
    setState((current) => (current.status === 'ready' ? { ...change(current), status: 'ready' } : current));
  }, []);

  const setColumn = useCallback(
    (column: number, field: SheetField | null) =>
      changeReady((ready) => {
        const mapping = setColumnField(ready.mapping, column, field);
        if (userKey) void writeColumnMapping(userKey, ready.signature, mapping).catch(() => undefined);
        return {
          ...ready,
          mapping,
          mappingProblems: mappingProblems(mapping),
          remembered: false,
          draft: remapDraft(vocabulary, ready.draft, mapping),
        };
      }),
    [changeReady, userKey, vocabulary],
  );

  const resetMapping = useCallback(
    () =>
      changeReady((ready) => {
        if (userKey) void writeColumnMapping(userKey, ready.signature, ready.guessedMapping).catch(() => undefined);
        return {
          ...ready,
          mapping: ready.guessedMapping,
          mappingProblems: mappingProblems(ready.guessedMapping),
          remembered: false,
          draft: remapDraft(vocabulary, ready.draft, ready.guessedMapping),
        };
      }),
    [changeReady, userKey, vocabulary],
  );

  const setCell = useCallback(
    (row: number, column: number, value: string) =>
      changeReady((ready) => ({ ...ready, draft: editCell(vocabulary, ready.draft, row, column, value) })),
    [changeReady, vocabulary],
  );

  const setRowExcluded = useCallback(
    (row: number, excluded: boolean) =>
      changeReady((ready) => ({ ...ready, draft: setExcluded(vocabulary, ready.draft, row, excluded) })),
    [changeReady, vocabulary],
  );

  /** Closes the import (or it was started): nothing of it is kept any more. */
  const clear = useCallback(() => {
    run.current += 1;
    chosen.current = { sheet: null, images: { kind: 'none' } };
    if (userKey) void deleteWorkingImport(userKey).catch(() => undefined);
    setSheetFile(null);
    setImageSource({ kind: 'none' });
    setState({ status: 'idle' });
  }, [userKey]);

  return { sheet, images, state, vocabulary, checked, restored, keep, choose, setSheet, setImages, setColumn, resetMapping, setCell, setRowExcluded, clear };
}
