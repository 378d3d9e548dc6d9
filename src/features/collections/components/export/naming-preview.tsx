// The first names the template makes, and what blocks the export: rows whose files would have one
// name (by their row numbers and codes), unknown tokens, names that came out empty.
import { useTranslation } from 'react-i18next';
import type { NamingPlan } from '../../../../lib/collections/naming-template';

const PREVIEW_COUNT = 5;
const ROWS_SHOWN = 8;

export function NamingPreview({ plan, total }: { plan: NamingPlan; total: number }) {
  const { t, i18n } = useTranslation();
  const list = (values: readonly (string | number)[]) => {
    const shown = values.slice(0, ROWS_SHOWN).map(String);
    const text = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(shown);
    return values.length > ROWS_SHOWN ? t('collections.export.andMore', { list: text, count: values.length - ROWS_SHOWN }) : text;
  };
  const problems = [
    ...plan.unknownTokens.map((token) => t('collections.export.unknownToken', { token })),
    ...(plan.emptyRows.length ? [t('collections.export.emptyNames', { rows: list(plan.emptyRows) })] : []),
    ...plan.collisions.map((c) =>
      t('collections.export.collision', { name: c.name, rows: list(c.rows.map((row, i) => `${row} (${c.codes[i] ?? ''})`)) }),
    ),
  ];
  return (
    <div className="cx-preview">
      <h3 className="cx-subtitle">{t('collections.export.previewTitle', { count: total })}</h3>
      {plan.names.length ? (
        <ol className="cx-names" data-testid="naming-preview">
          {plan.names.slice(0, PREVIEW_COUNT).map((name, index) => (
            <li key={index}>{name || t('collections.export.noName')}</li>
          ))}
        </ol>
      ) : (
        <p className="cx-note">{t('collections.export.nothingYet')}</p>
      )}
      <div aria-live="polite">
        {problems.length ? (
          <ul className="cx-problems" data-testid="naming-problems">
            {problems.slice(0, ROWS_SHOWN).map((problem, index) => (
              <li key={index}>{problem}</li>
            ))}
            {problems.length > ROWS_SHOWN ? <li>{t('collections.export.moreProblems', { count: problems.length - ROWS_SHOWN })}</li> : null}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
