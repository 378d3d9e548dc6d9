// Batch-wide state and actions: progress, why the queue is paused, cancel all, retry failed,
// clear finished.
import { useTranslation } from 'react-i18next';
import type { PauseReason } from '../../../workers/upscale-queue/protocol';
import type { QueueActions, QueueCounts } from '../hooks/use-upscale-queue';

interface Props {
  counts: QueueCounts;
  paused: PauseReason;
  actions: QueueActions;
}

export function QueueToolbar({ counts, paused, actions }: Props) {
  const { t } = useTranslation();
  if (counts.total === 0) return null;
  const finished = counts.completed + counts.failed + counts.cancelled;
  const percent = counts.total ? Math.round((finished / counts.total) * 100) : 0;
  // Without the service the queue is not idle when this device upscales in its place.
  const onDevice = paused === 'offline' && counts.onDevice > 0;
  return (
    <div className="ip-toolbar" data-testid="queue-toolbar">
      <div className="ip-toolbar__summary">
        <strong data-testid="queue-summary">{t('imageProcessing.queue.summary', { done: counts.completed, total: counts.total })}</strong>
        <span className="ip-toolbar__counts">
          {counts.processing > 0 && <span>{t('imageProcessing.queue.inFlight', { count: counts.processing })}</span>}
          {counts.waiting > 0 && <span>{t('imageProcessing.queue.waiting', { count: counts.waiting })}</span>}
          {counts.failed > 0 && <span className="ip-text-danger">{t('imageProcessing.queue.failed', { count: counts.failed })}</span>}
          {counts.interrupted > 0 && <span className="ip-text-warn">{t('imageProcessing.queue.interrupted', { count: counts.interrupted })}</span>}
        </span>
        <div className="ip-progress" aria-hidden="true">
          <div className="ip-progress__bar" style={{ transform: `scaleX(${percent / 100})` }} />
        </div>
      </div>
      <div className="ip-toolbar__actions">
        {counts.failed + counts.interrupted > 0 && (
          <button type="button" className="ip-button" onClick={() => void actions.retryAllFailed()} data-testid="retry-all">
            {t('imageProcessing.actions.retryFailed')}
          </button>
        )}
        {counts.waiting + counts.processing + counts.interrupted > 0 && (
          <button type="button" className="ip-button ip-button--danger" onClick={() => void actions.cancelAll()} data-testid="cancel-all">
            {t('imageProcessing.actions.cancelAll')}
          </button>
        )}
        {finished > 0 && (
          <button type="button" className="ip-button ip-button--ghost" onClick={() => void actions.clearFinished()} data-testid="clear-finished">
            {t('imageProcessing.actions.clearFinished')}
          </button>
        )}
      </div>
      {paused && (
        <p className="ip-toolbar__paused" role="status" data-testid="queue-paused" data-on-device={onDevice}>
          {onDevice ? t('imageProcessing.queue.paused.offlineOnDevice') : t(`imageProcessing.queue.paused.${paused}`)}
        </p>
      )}
      {counts.retrying > 0 && !paused && (
        <p className="ip-toolbar__hint" role="status" data-testid="queue-retrying">
          {t('imageProcessing.queue.retrying', { count: counts.retrying })}
        </p>
      )}
      {counts.interrupted > 0 && <p className="ip-toolbar__hint">{t('imageProcessing.queue.interruptedHint')}</p>}
    </div>
  );
}
