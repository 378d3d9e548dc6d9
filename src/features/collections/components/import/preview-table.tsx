// Step three: the rows as they will be queued. Every problem names its row and column and leads to
// the cell; a cell is fixed in place (Enter or leaving the field keeps it, Escape drops it); a row
// is left out or taken back. The counts say how many rows are ready and how many still blocked, and
// which images match no row. Long sheets show 50 rows a page.
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Problem } from '../../../../lib/collections/collection-check';
import { readyRows, type CollectionDraft } from '../../model/collection-draft';

const PAGE_ROWS = 50;

interface Props {
  draft: CollectionDraft;
  onEdit(row: number, column: number, value: string): void;
  onExclude(row: number, excluded: boolean): void;
}

interface Editing {
  row: number;
  column: number;
  value: string;
}

export function PreviewTable({ draft, onEdit, onExclude }: Props) {
  const { t } = useTranslation();
  const { collection, problems } = draft;
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Editing | null>(null);
  const tableRef = useRef<HTMLDivElement>(null);

  const columns = useMemo(
    () => collection.mapping.flatMap((field, column) => (field ? [column] : [])),
    [collection.mapping],
  );
  const ready = useMemo(() => new Set(readyRows(draft)), [draft]);
  const byRow = useMemo(() => {
    const map = new Map<number, Problem[]>();
    for (const p of problems) if (p.row !== null) map.set(p.row, [...(map.get(p.row) ?? []), p]);
    return map;
  }, [problems]);
  const excluded = collection.rows.filter((r) => r.excluded).length;
  const blocked = collection.rows.length - ready.size - excluded;
  const rowProblems = problems.filter((p) => p.row !== null);
  const firstError = useMemo(() => {
    const first = new Map<number, Problem>();
    for (const p of problems) if (p.row !== null && p.severity === 'error' && !first.has(p.row)) first.set(p.row, p);
    return first;
  }, [problems]);
  const unmatched = problems.filter((p) => p.key === 'unmatchedImage');

  const shownRows = useMemo(
    () =>
      collection.rows.flatMap((row, index) =>
        !onlyProblems || (byRow.get(index)?.length ?? 0) > 0 ? [index] : [],
      ),
    [byRow, collection.rows, onlyProblems],
  );
  const pages = Math.max(1, Math.ceil(shownRows.length / PAGE_ROWS));
  const currentPage = Math.min(page, pages - 1);
  const pageRows = shownRows.slice(currentPage * PAGE_ROWS, (currentPage + 1) * PAGE_ROWS);

  const header = (column: number) => collection.headers[column] || t('collections.import.untitledColumn', { n: column + 1 });

  function startEdit(row: number, column: number) {
    // The row's page, so the cell is on screen to edit.
    const at = shownRows.indexOf(row);
    if (at < 0) setOnlyProblems(false);
    const index = at < 0 ? row : at;
    setPage(Math.floor(index / PAGE_ROWS));
    setEditing({ row, column, value: collection.rows[row]?.cells[column] ?? '' });
  }

  function finishEdit(keep: boolean) {
    if (!editing) return;
    const original = collection.rows[editing.row]?.cells[editing.column] ?? '';
    if (keep && editing.value !== original) onEdit(editing.row, editing.column, editing.value);
    setEditing(null);
  }

  function onEditKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      finishEdit(true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      finishEdit(false);
    }
  }

  return (
    <section className="ci-card" aria-labelledby="ci-preview-title" data-testid="collection-preview">
      <h2 id="ci-preview-title">{t('collections.import.previewTitle')}</h2>
      <ul className="ci-counts" data-testid="collection-counts">
        <li className="ci-count ci-count--ready" data-testid="count-ready">
          {t('collections.import.countReady', { count: ready.size })}
        </li>
        <li className="ci-count ci-count--blocked" data-testid="count-blocked">
          {t('collections.import.countBlocked', { count: blocked })}
        </li>
        <li className="ci-count" data-testid="count-excluded">
          {t('collections.import.countExcluded', { count: excluded })}
        </li>
        <li className="ci-count" data-testid="count-unmatched">
          {t('collections.import.countUnmatched', { count: unmatched.length })}
        </li>
      </ul>

      {rowProblems.length > 0 && (
        <details className="ci-problems" open data-testid="collection-problems">
          <summary>{t('collections.import.problemsTitle', { count: rowProblems.length })}</summary>
          <ul>
            {rowProblems.map((p, i) => (
              // A row's Leave out is offered once, at its first error.
              <li key={`${p.key}-${p.row}-${p.column}-${i}`} className={`ci-problem ci-problem--${p.severity}`}>
                <span>{t(p.messageKey, p.values)}</span>
                {p.column !== null && (
                  <button
                    type="button"
                    className="btn btn--ghost ci-small"
                    onClick={() => startEdit(p.row!, p.column!)}
                    aria-label={t('collections.import.fixCell', { row: p.sheetRow ?? '', column: header(p.column) })}
                  >
                    {t('collections.import.fix')}
                  </button>
                )}
                {p.severity === 'error' && p.row !== null && firstError.get(p.row) === p && (
                  <button type="button" className="btn btn--ghost ci-small" onClick={() => onExclude(p.row!, true)}>
                    {t('collections.import.leaveOut')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}

      {unmatched.length > 0 && (
        <details className="ci-problems" data-testid="collection-unmatched">
          <summary>{t('collections.import.unmatchedTitle', { count: unmatched.length })}</summary>
          <ul>
            {unmatched.map((p, i) => (
              <li key={i} className="ci-problem ci-problem--warning">
                {t(p.messageKey, p.values)}
              </li>
            ))}
          </ul>
        </details>
      )}

      <div className="ci-toolbar" role="group" aria-label={t('collections.import.showLabel')}>
        <button
          type="button"
          className={`btn btn--ghost ci-small${onlyProblems ? '' : ' is-on'}`}
          aria-pressed={!onlyProblems}
          onClick={() => {
            setOnlyProblems(false);
            setPage(0);
          }}
        >
          {t('collections.import.showAll', { count: collection.rows.length })}
        </button>
        <button
          type="button"
          className={`btn btn--ghost ci-small${onlyProblems ? ' is-on' : ''}`}
          aria-pressed={onlyProblems}
          onClick={() => {
            setOnlyProblems(true);
            setPage(0);
          }}
        >
          {t('collections.import.showProblems', { count: byRow.size })}
        </button>
      </div>

      <div
        className="ci-table-wrap"
        ref={tableRef}
        tabIndex={0}
        role="region"
        aria-labelledby="ci-preview-title"
      >
        <table className="ci-table" data-testid="collection-table">
          <thead>
            <tr>
              <th scope="col">{t('collections.import.rowColumn')}</th>
              <th scope="col">{t('collections.import.statusColumn')}</th>
              {columns.map((column) => (
                <th scope="col" key={column}>
                  {header(column)}
                </th>
              ))}
              <th scope="col">{t('collections.import.imagesColumn')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('collections.import.actionsColumn')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {pageRows.map((index) => {
              const row = collection.rows[index]!;
              const own = byRow.get(index) ?? [];
              const status = row.excluded ? 'excluded' : ready.has(index) ? 'ready' : 'blocked';
              return (
                <tr key={index} className={`ci-row ci-row--${status}`} data-testid={`collection-row-${row.sheetRow}`}>
                  <th scope="row">{row.sheetRow}</th>
                  <td>
                    <span className={`ci-status ci-status--${status}`}>{t(`collections.import.status.${status}`)}</span>
                  </td>
                  {columns.map((column) => {
                    const cellProblems = own.filter((p) => p.column === column);
                    const severity = cellProblems.some((p) => p.severity === 'error')
                      ? 'error'
                      : cellProblems.length > 0
                        ? 'warning'
                        : null;
                    const value = row.cells[column] ?? '';
                    const isEditing = editing?.row === index && editing.column === column;
                    const label = t('collections.import.cellLabel', { row: row.sheetRow, column: header(column) });
                    return (
                      <td key={column} className={severity ? `ci-cell--${severity}` : undefined}>
                        {isEditing ? (
                          <input
                            className="input ci-cell-input"
                            autoFocus
                            value={editing.value}
                            aria-label={label}
                            data-testid={`cell-input-${row.sheetRow}-${column}`}
                            onChange={(event) => setEditing({ ...editing, value: event.target.value })}
                            onKeyDown={onEditKey}
                            onBlur={() => finishEdit(true)}
                          />
                        ) : (
                          <button
                            type="button"
                            className="ci-cell"
                            disabled={row.excluded}
                            aria-label={`${label}: ${value || t('collections.import.emptyCell')}`}
                            title={cellProblems.map((p) => t(p.messageKey, p.values)).join('\n') || undefined}
                            data-testid={`cell-${row.sheetRow}-${column}`}
                            onClick={() => startEdit(index, column)}
                          >
                            {value || <span className="ci-muted">—</span>}
                          </button>
                        )}
                      </td>
                    );
                  })}
                  <td>{row.images.length}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn--ghost ci-small"
                      data-testid={`row-exclude-${row.sheetRow}`}
                      onClick={() => onExclude(index, !row.excluded)}
                      aria-label={t(row.excluded ? 'collections.import.takeBackRow' : 'collections.import.leaveOutRow', {
                        row: row.sheetRow,
                      })}
                    >
                      {row.excluded ? t('collections.import.takeBack') : t('collections.import.leaveOut')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav className="ci-pages" aria-label={t('collections.import.pagesLabel')}>
          <button type="button" className="btn btn--ghost ci-small" disabled={currentPage === 0} onClick={() => setPage(currentPage - 1)}>
            {t('collections.import.previousPage')}
          </button>
          <span>{t('collections.import.pageOf', { page: currentPage + 1, pages })}</span>
          <button
            type="button"
            className="btn btn--ghost ci-small"
            disabled={currentPage >= pages - 1}
            onClick={() => setPage(currentPage + 1)}
          >
            {t('collections.import.nextPage')}
          </button>
        </nav>
      )}
    </section>
  );
}
