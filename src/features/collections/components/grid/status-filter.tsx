// The grid's filter by state as a toolbar of toggle buttons (one pressed at a time), each with its
// count; arrow keys move along the toolbar, which is one tab stop.
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GRID_FILTERS, type GridFilter } from '../../model/collection-filter';

interface Props {
  value: GridFilter;
  counts: Record<GridFilter, number>;
  onChange: (filter: GridFilter) => void;
}

export function StatusFilter({ value, counts, onChange }: Props) {
  const { t } = useTranslation();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const current = GRID_FILTERS.indexOf(value);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const focused = refs.current.findIndex((el) => el === document.activeElement);
    if (!step || focused === -1) return;
    event.preventDefault();
    refs.current[(focused + step + GRID_FILTERS.length) % GRID_FILTERS.length]?.focus();
  };

  return (
    <div className="cg-filter" role="toolbar" aria-label={t('collections.grid.filterLabel')} onKeyDown={onKeyDown} data-testid="collection-filter">
      {GRID_FILTERS.map((filter, index) => (
        <button
          key={filter}
          ref={(el) => {
            refs.current[index] = el;
          }}
          type="button"
          className="cg-filter__option"
          aria-pressed={filter === value}
          tabIndex={index === current ? 0 : -1}
          onClick={() => onChange(filter)}
          data-testid={`filter-${filter}`}
        >
          {t(`collections.grid.filter.${filter}`)}
          <span className="cg-filter__count">{counts[filter]}</span>
        </button>
      ))}
    </div>
  );
}
