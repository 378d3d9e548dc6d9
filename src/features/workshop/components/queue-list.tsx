// The queue: items waiting on the device (with their place in line), being sent, refused, then
// the server's items with their state (pending, processing, completed, error), cancel and retry.
// A running item shows its text as it is written, from its event stream.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Spinner } from '../../../components/spinner';
import { isApiError } from '../../../lib/api';
import { RetryGaveUp } from '../../../lib/retry/with-retry';
import type { LiveText } from '../model/live-text';
import { isCancelledItem, isRunning, type WorkshopItem } from '../model/workshop-item';
import { waitingPosition, type QueueEntry } from '../model/workshop-queue';
import { ItemResult } from './item-result';
import { RetryCountdown } from '../../../components/retry-countdown';

interface Props {
  entries: QueueEntry[];
  items: WorkshopItem[];
  /** The text written so far of the items followed by their event streams. */
  live?: Readonly<Record<number, LiveText>>;
  online: boolean;
  onRemoveEntry(id: string): void;
  onResendEntry(id: string): void;
  onCancelItem(id: number): Promise<unknown>;
  onRetryItem(id: number): Promise<unknown>;
}

function errorText(error: unknown, fallback: string): string {
  const last = error instanceof RetryGaveUp ? error.lastError : error;
  return isApiError(last) ? last.message : fallback;
}

export function QueueList({ entries, items, live = {}, online, onRemoveEntry, onResendEntry, onCancelItem, onRetryItem }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<number | null>(null);

  async function act(id: number, run: () => Promise<unknown>, failed: string) {
    setBusy(id);
    try {
      await run();
    } catch (error) {
      toast.error(errorText(error, failed));
    } finally {
      setBusy(null);
    }
  }

  return (
    <ol className="ws-queue" data-testid="workshop-queue">
      {[...entries].reverse().map((entry) => {
        const position = waitingPosition(entries, entry.id);
        return (
          <li key={entry.id} className="ws-item" data-testid="workshop-entry" data-state={entry.state}>
            <div className="ws-item__head">
              <span className="ws-badge">{t(`workshop.types.${entry.type}`)}</span>
              <span className="ws-status" data-testid="workshop-status" role="status">
                {entry.state === 'sending' && <Spinner size={14} />}
                {entry.state === 'waiting'
                  ? online
                    ? t('workshop.status.waiting', { position })
                    : t('workshop.status.waitingOffline')
                  : t(`workshop.status.${entry.state}`)}
              </span>
            </div>
            {entry.text && <p className="ws-item__text">{entry.text}</p>}
            {entry.files.length > 0 && <p className="ws-help">{t('workshop.item.imageCount', { count: entry.files.length })}</p>}
            {entry.state === 'sending' && entry.retryAt !== undefined && (
              <p className="ws-help" data-testid="workshop-entry-retrying">
                {entry.error ? `${entry.error} · ` : ''}
                <RetryCountdown nextAttemptAt={entry.retryAt} waitingKey="workshop.status.retryingIn" dueKey="workshop.status.retrying" />
              </p>
            )}
            {entry.state === 'failed' && (
              <p className="ws-error" role="alert" data-testid="workshop-entry-error">
                {entry.error}
              </p>
            )}
            <div className="ws-actions">
              {entry.state === 'failed' && entry.retryable && (
                <button type="button" className="ws-button ws-button--small" onClick={() => onResendEntry(entry.id)}>
                  {t('workshop.retry')}
                </button>
              )}
              <button type="button" className="ws-button ws-button--small" onClick={() => onRemoveEntry(entry.id)} data-testid="workshop-remove">
                {entry.state === 'failed' ? t('workshop.item.remove') : t('workshop.item.cancel')}
              </button>
            </div>
          </li>
        );
      })}
      {items.map((item) => {
        const cancelled = isCancelledItem(item);
        const state = cancelled ? 'cancelled' : item.status;
        const running = isRunning(item.status);
        const liveText = live[item.id];
        return (
          <li key={item.id} className="ws-item" data-testid="workshop-item" data-status={state} data-item-id={item.id}>
            <div className="ws-item__head">
              <span className="ws-badge">{t(`workshop.types.${item.type}`)}</span>
              <span className="ws-status" data-testid="workshop-status" role="status">
                {isRunning(item.status) && <Spinner size={14} />}
                {t(`workshop.status.${state}`)}
              </span>
            </div>
            {item.text && <p className="ws-item__text">{item.text}</p>}
            {item.images.length > 0 && item.status !== 'completed' && (
              <ul className="ws-thumbs">
                {item.images.map((image, i) => (
                  <li key={image.file_id + i} className="ws-thumb">
                    <img src={image.url} alt={t('workshop.item.sourceImage', { n: i + 1 })} />
                  </li>
                ))}
              </ul>
            )}
            {running && liveText?.text && (
              <div className="ws-live" data-testid="workshop-live">
                <p className="ws-help">{t('workshop.item.writing')}</p>
                <p className="ws-live__text" data-testid="workshop-streaming-text">
                  {liveText.text}
                </p>
              </div>
            )}
            {running && liveText && liveText.retryAt !== null && (
              <p className="ws-help" data-testid="workshop-item-retrying">
                <RetryCountdown nextAttemptAt={liveText.retryAt} waitingKey="workshop.status.retryingIn" dueKey="workshop.status.retrying" />
              </p>
            )}
            {item.status === 'error' && !cancelled && item.error && (
              <p className="ws-error" role="alert" data-testid="workshop-item-error">
                {item.error.message}
              </p>
            )}
            {item.status === 'completed' && item.result && <ItemResult item={item} result={item.result} />}
            <div className="ws-actions">
              {isRunning(item.status) && (
                <button
                  type="button"
                  className="ws-button ws-button--small"
                  disabled={busy === item.id || !online}
                  onClick={() => void act(item.id, () => onCancelItem(item.id), t('workshop.errors.cancelFailed'))}
                  data-testid="workshop-cancel"
                >
                  {t('workshop.item.cancel')}
                </button>
              )}
              {item.status === 'error' && (
                <button
                  type="button"
                  className="ws-button ws-button--small"
                  disabled={busy === item.id || !online}
                  onClick={() => void act(item.id, () => onRetryItem(item.id), t('workshop.errors.retryFailed'))}
                  data-testid="workshop-retry"
                >
                  {t('workshop.retry')}
                </button>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
