// Step two: which form field each column of the sheet fills. Opens with the guess (or this person's
// mapping for sheets with these headers); each column is a select of the fields or "ignore", the
// columns that override the collection's settings for one row grouped apart. What still stops the
// import (no code column, a field chosen twice) is said above the columns.
import { useTranslation } from 'react-i18next';
import type { ColumnMapping, MappingProblem } from '../../../../lib/collections/column-mapping';
import {
  OVERRIDE_FIELDS,
  SHEET_FIELDS,
  isOverrideField,
  isSheetField,
  type SheetField,
} from '../../../../lib/collections/sheet-fields';

interface Props {
  sheetName: string;
  headers: readonly string[];
  /** The first data row, to show what a column holds. */
  sample: readonly string[];
  mapping: ColumnMapping;
  problems: readonly MappingProblem[];
  remembered: boolean;
  canReset: boolean;
  onChange(column: number, field: SheetField | null): void;
  onReset(): void;
}

const IGNORE = '';
const FORM_FIELDS = SHEET_FIELDS.filter((field) => !isOverrideField(field));

export function MappingEditor({ sheetName, headers, sample, mapping, problems, remembered, canReset, onChange, onReset }: Props) {
  const { t } = useTranslation();
  const fieldLabel = (field: SheetField) => t(`collections.headers.${field}`);
  const problemText = (problem: MappingProblem) =>
    problem.key === 'fieldTwice'
      ? t('collections.sheetErrors.fieldTwice', { field: fieldLabel(problem.field) })
      : t(`collections.sheetErrors.${problem.key}`, { name: sheetName });

  return (
    <section className="ci-card" aria-labelledby="ci-mapping-title" data-testid="collection-mapping">
      <div className="ci-card__head">
        <h2 id="ci-mapping-title">{t('collections.import.mappingTitle')}</h2>
        {canReset && (
          <button type="button" className="btn btn--ghost" onClick={onReset}>
            {t('collections.import.mappingReset')}
          </button>
        )}
      </div>
      <p className="ci-muted">
        {remembered ? t('collections.import.mappingRemembered') : t('collections.import.mappingHelp')}
      </p>
      {problems.length > 0 && (
        <div role="alert" data-testid="collection-mapping-problems">
          <ul className="ci-errors">
            {problems.map((problem) => (
              <li key={`${problem.key}-${problem.key === 'fieldTwice' ? problem.field : ''}`}>{problemText(problem)}</li>
            ))}
          </ul>
        </div>
      )}
      <ul className="ci-mapping">
        {headers.map((header, column) => {
          const id = `ci-map-${column}`;
          const value = mapping[column] ?? IGNORE;
          return (
            <li key={column} className={`ci-mapping__column${value ? '' : ' ci-mapping__column--ignored'}`}>
              <label htmlFor={id} className="ci-mapping__header">
                {header || t('collections.import.untitledColumn', { n: column + 1 })}
              </label>
              <span className="ci-mapping__sample" title={sample[column] ?? ''}>
                {sample[column] || '—'}
              </span>
              <select
                id={id}
                className="input ci-select"
                value={value}
                data-testid={`collection-map-${column}`}
                onChange={(event) => onChange(column, isSheetField(event.target.value) ? event.target.value : null)}
              >
                <option value={IGNORE}>{t('collections.import.ignoreColumn')}</option>
                {FORM_FIELDS.map((field) => (
                  <option key={field} value={field}>
                    {fieldLabel(field)}
                  </option>
                ))}
                <optgroup label={t('collections.import.overrideGroup')}>
                  {OVERRIDE_FIELDS.map((field) => (
                    <option key={field} value={field}>
                      {fieldLabel(field)}
                    </option>
                  ))}
                </optgroup>
              </select>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
