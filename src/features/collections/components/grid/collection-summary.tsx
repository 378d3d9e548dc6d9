// The page's header figures, live: rows per status, rows queued or running per stage, and the
// time left (estimate_ms in the reader's language).
import { useTranslation } from 'react-i18next';
import {
  ITEM_STATUSES,
  STAGES,
  type CollectionView,
} from '../../../../../shared/collections/collection-types';
import { numberFormat } from '../../../../i18n/formats';
import { formatDuration } from '../../model/collection-estimate';

export function CollectionSummary({ view }: { view: CollectionView }) {
  const { t, i18n } = useTranslation();
  const count = (n: number) => numberFormat(i18n.language, {}).format(n);
  const moving = view.status === 'running' || view.status === 'paused';
  // Rows waiting for a person are no work of the engine's: no time is left to tell while only they remain.
  const working = view.counts.queued + view.counts.running > 0;
  return (
    <div className="cg-summary" data-testid="collection-summary">
      <dl className="cg-figures" aria-label={t('collections.grid.countsByStatus')}>
        {ITEM_STATUSES.map((status) => (
          <div key={status} className={`cg-figure cg-figure--${status}`} data-testid={`count-${status}`} data-count={view.counts[status]}>
            <dt>{t(`collections.grid.status.${status}`)}</dt>
            <dd>{count(view.counts[status])}</dd>
          </div>
        ))}
      </dl>
      {moving ? (
        <dl className="cg-figures cg-figures--stages" aria-label={t('collections.grid.countsByStage')}>
          {STAGES.map((stage) => (
            <div key={stage} className="cg-figure" data-testid={`stage-${stage}`}>
              <dt>{t(`collections.grid.stage.${stage}`)}</dt>
              <dd>{count(view.by_stage[stage])}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {moving && working ? (
        <p className="cg-estimate" data-testid="collection-estimate">
          {view.estimate_ms === null
            ? t('collections.grid.estimateUnknown')
            : t('collections.grid.estimate', { time: formatDuration(view.estimate_ms, i18n.language) })}
        </p>
      ) : null}
    </div>
  );
}
