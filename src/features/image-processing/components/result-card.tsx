// One image of the batch: its thumbnail, state (with upload percentage), result metadata and the
// actions that fit its state. Every action is a visible button: no hover-only controls on tablets.
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryCountdown } from '../../../components/retry-countdown';
import { toast } from 'sonner';
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { fetchResultBlob } from '../api/fetch-result-blob';
import { useObjectUrl } from '../hooks/use-object-url';
import type { QueueActions } from '../hooks/use-upscale-queue';
import { formatBytes, formatSeconds } from '../model/format';
import { failureText, isRetrying, statusKey } from '../model/item-status';
import { resultFileName } from '../model/result-file-name';
import { saveBlob } from '../../../lib/media/save-blob';

interface Props {
  item: QueueItem;
  /** The source's thumbnail; only this of the stored file, so marking files queued re-renders no card. */
  thumb: Blob | undefined;
  actions: QueueActions;
  /** Opens the before/after comparison or the viewer for a finished item. */
  onOpen?(item: QueueItem, mode: 'compare' | 'view'): void;
}

// Snapshots arrive as fresh objects every 100 ms; a card re-renders only when its item changed.
function sameCard(a: Props, b: Props): boolean {
  return (
    a.item.id === b.item.id &&
    a.item.updatedAt === b.item.updatedAt &&
    a.item.progress === b.item.progress &&
    a.thumb === b.thumb &&
    a.actions === b.actions &&
    a.onOpen === b.onOpen
  );
}

export const ResultCard = memo(function ResultCard({ item, thumb: thumbBlob, actions, onOpen }: Props) {
  const { t } = useTranslation();
  const thumb = useObjectUrl(thumbBlob);
  const [downloading, setDownloading] = useState(false);
  const failure = failureText(item);
  const r = item.result;

  const download = async () => {
    setDownloading(true);
    try {
      saveBlob(await fetchResultBlob(item), resultFileName(item));
    } catch {
      toast.error(t('imageProcessing.errors.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <li className={`ip-card ip-card--${item.status}`} data-testid="result-card" data-status={item.status} data-name={item.fileName}>
      <div className="ip-card__media">
        {thumb ? <img src={thumb} alt="" draggable={false} decoding="async" /> : <span className="ip-card__placeholder">{item.fileName.slice(0, 1)}</span>}
        {item.status !== 'processing' && (
          <button
            type="button"
            className="ip-card__remove"
            onClick={() => void actions.remove(item.id)}
            aria-label={t('imageProcessing.actions.removeNamed', { name: item.fileName })}
            title={t('imageProcessing.actions.remove')}
            data-testid="item-remove"
          >
            ×
          </button>
        )}
        {item.status === 'processing' && (
          <div className="ip-card__progress" role="progressbar" aria-valuenow={item.progress} aria-valuemin={0} aria-valuemax={100}>
            <div style={{ transform: `scaleX(${item.progress / 100})` }} />
          </div>
        )}
      </div>
      <div className="ip-card__body">
        <div className="ip-card__name" title={item.fileName}>
          {item.fileName}
        </div>
        <div className={`ip-status ip-status--${item.status}`} data-testid="item-status">
          {isRetrying(item) && item.retry ? (
            <RetryCountdown
              nextAttemptAt={item.retry.nextAttemptAt}
              waitingKey="imageProcessing.status.retryingIn"
              dueKey="imageProcessing.status.retrying"
              testId="item-retry-countdown"
            />
          ) : (
            t(statusKey(item), { progress: item.progress })
          )}
        </div>
        {failure && (
          <div className="ip-card__error" data-testid="item-error">
            {'key' in failure ? t(failure.key) : failure.text}
          </div>
        )}
        {r && (
          <dl className="ip-card__meta" data-testid="item-meta">
            <dt>{t('imageProcessing.result.model')}</dt>
            <dd>{item.params.modelName}</dd>
            <dt>{t('imageProcessing.result.scale')}</dt>
            <dd>{`${item.params.scale}x`}</dd>
            <dt>{t('imageProcessing.result.size')}</dt>
            <dd>
              {r.width && r.height ? `${r.width}×${r.height}` : ''}
              {r.outputSize ? ` · ${formatBytes(r.outputSize)}` : ''}
              {!r.width && !r.outputSize ? '—' : ''}
            </dd>
            <dt>{t('imageProcessing.result.madeOn')}</dt>
            <dd data-testid="item-made-on" data-made-on={r.madeOn ?? 'server'}>
              {t(r.madeOn === 'device' ? 'imageProcessing.result.madeOnDevice' : 'imageProcessing.result.madeOnServer')}
            </dd>
            <dt>{t('imageProcessing.result.time')}</dt>
            <dd>{t('imageProcessing.result.seconds', { value: formatSeconds(r.durationMs) })}</dd>
          </dl>
        )}
        <div className="ip-card__actions">
          {(item.status === 'waiting' || item.status === 'processing' || item.status === 'interrupted') && (
            <button type="button" className="ip-button ip-button--small" onClick={() => void actions.cancel(item.id)} data-testid="item-cancel">
              {t('imageProcessing.actions.cancel')}
            </button>
          )}
          {(item.status === 'failed' || item.status === 'cancelled' || item.status === 'interrupted') && (
            <button type="button" className="ip-button ip-button--small" onClick={() => void actions.retry(item.id)} data-testid="item-retry">
              {t('imageProcessing.actions.retry')}
            </button>
          )}
          {item.status === 'completed' && (
            <>
              {onOpen && (
                <button type="button" className="ip-button ip-button--small" onClick={() => onOpen(item, 'compare')} data-testid="item-compare">
                  {t('imageProcessing.actions.compare')}
                </button>
              )}
              {onOpen && (
                <button type="button" className="ip-button ip-button--small" onClick={() => onOpen(item, 'view')} data-testid="item-view">
                  {t('imageProcessing.actions.view')}
                </button>
              )}
              <button
                type="button"
                className="ip-button ip-button--small ip-button--primary"
                onClick={() => void download()}
                disabled={downloading}
                data-testid="item-download"
              >
                {t('imageProcessing.actions.download')}
              </button>
            </>
          )}
        </div>
      </div>
    </li>
  );
}, sameCard);
