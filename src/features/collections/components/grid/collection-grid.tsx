// The review grid: fabrics as rows, stages as columns, only the rows in view rendered (500 rows
// scroll like 15). One cell is the grid's tab stop; arrow keys move it (Home/End along the row,
// PageUp/PageDown by a screen, Ctrl+Home/End to the first and last row), Tab walks the buttons of
// the rows in view, and a row scrolled out of view is scrolled back before its cell takes focus.
import { useCallback, useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionItemView } from '../../../../../shared/collections/collection-types';
import type { CollectionCommands } from '../../hooks/use-collection-commands';
import type { StageProgress } from '../../model/collection-events';
import type { ItemCommand } from '../../model/collection-stage-state';
import { GRID_COLUMNS, GRID_TEMPLATE, GRID_WIDTH, HEADER_HEIGHT, ROW_HEIGHT } from './grid-columns';
import { GridRow } from './grid-row';
import { useVisibleRows } from './use-visible-rows';

interface Props {
  items: readonly CollectionItemView[];
  /** Each item's place in the whole collection, from 1 (the filter hides rows, not numbers). */
  numbers: ReadonlyMap<number, number>;
  commands: CollectionCommands;
  progress: ReadonlyMap<number, StageProgress>;
  label: string;
}

interface Active {
  row: number;
  col: number;
}

export function CollectionGrid({ items, numbers, commands, progress, label }: Props) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<Active>({ row: 0, col: 0 });
  const focusPending = useRef(false);
  const { start, end } = useVisibleRows(scroller, items.length, ROW_HEIGHT, HEADER_HEIGHT);
  const row = Math.min(active.row, Math.max(0, items.length - 1));

  const { runRow, dismissRow } = commands;
  const onCommand = useCallback((item: CollectionItemView, command: ItemCommand) => void runRow(item.id, { kind: command }), [runRow]);
  const onPick = useCallback((item: CollectionItemView, imageId: number) => void runRow(item.id, { kind: 'pick', imageId }), [runRow]);

  const cellAt = (r: number, c: number) =>
    grid.current?.querySelector<HTMLElement>(`[aria-rowindex="${r + 2}"] [data-col="${c}"]`) ?? null;

  /** Brings row `r` into the scroll area (below the sticky header) if it is not. */
  const reveal = (r: number) => {
    const el = scroller.current;
    if (!el) return;
    const top = HEADER_HEIGHT + r * ROW_HEIGHT;
    if (top - HEADER_HEIGHT < el.scrollTop) el.scrollTop = top - HEADER_HEIGHT;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  };

  useEffect(() => {
    if (!focusPending.current) return;
    const cell = cellAt(row, active.col);
    if (cell) {
      focusPending.current = false;
      cell.focus({ preventScroll: true });
    }
  });

  const move = (next: Active) => {
    const r = Math.max(0, Math.min(items.length - 1, next.row));
    const c = Math.max(0, Math.min(GRID_COLUMNS.length - 1, next.col));
    setActive({ row: r, col: c });
    reveal(r);
    focusPending.current = true;
    const cell = cellAt(r, c);
    if (cell) {
      focusPending.current = false;
      cell.focus({ preventScroll: false });
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!items.length) return;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 4) / ROW_HEIGHT) - 1);
    const ctrl = event.ctrlKey || event.metaKey;
    const moves: Record<string, Active | undefined> = {
      ArrowDown: { row: row + 1, col: active.col },
      ArrowUp: { row: row - 1, col: active.col },
      ArrowRight: { row, col: active.col + 1 },
      ArrowLeft: { row, col: active.col - 1 },
      PageDown: { row: row + page, col: active.col },
      PageUp: { row: row - page, col: active.col },
      Home: ctrl ? { row: 0, col: 0 } : { row, col: 0 },
      End: ctrl ? { row: items.length - 1, col: GRID_COLUMNS.length - 1 } : { row, col: GRID_COLUMNS.length - 1 },
    };
    const next = moves[event.key];
    if (!next) return;
    // A text field would own these keys; the grid has none, its buttons do not use them.
    event.preventDefault();
    move(next);
  };

  /** A click or a Tab into a cell makes it the grid's tab stop. */
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-col]');
    const rowEl = cell?.closest<HTMLElement>('[aria-rowindex]');
    if (!cell || !rowEl) return;
    const r = Number(rowEl.getAttribute('aria-rowindex')) - 2;
    const c = Number(cell.dataset.col);
    if (r >= 0 && (r !== active.row || c !== active.col)) setActive({ row: r, col: c });
  };

  const visible = items.slice(start, end);
  return (
    <div className="cg-scroll" ref={scroller} data-testid="collection-grid-scroll">
      <div
        ref={grid}
        role="grid"
        aria-label={label}
        aria-rowcount={items.length + 1}
        aria-colcount={GRID_COLUMNS.length}
        className="cg-grid"
        style={{ width: GRID_WIDTH, ['--cg-columns' as string]: GRID_TEMPLATE }}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        data-testid="collection-grid"
      >
        <div role="rowgroup" className="cg-head">
          <div role="row" aria-rowindex={1} className="cg-row cg-row--head">
            {GRID_COLUMNS.map((column, index) => (
              <div key={column} role="columnheader" aria-colindex={index + 1} className={`cg-cell cg-cell--${column}`}>
                {t(`collections.grid.column.${column}`)}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" className="cg-body" style={{ height: items.length * ROW_HEIGHT }}>
          {visible.map((item, offset) => {
            const index = start + offset;
            return (
              <GridRow
                key={item.id}
                item={item}
                number={numbers.get(item.id) ?? index + 1}
                rowIndex={index + 2}
                top={index * ROW_HEIGHT}
                activeColumn={index === row ? active.col : null}
                command={commands.row(item.id)}
                progress={progress.get(item.id)}
                onCommand={onCommand}
                onPick={onPick}
                onDismissError={dismissRow}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
