// A started collection on its way to the server: its images going up (a bar and the count), then the
// create call. Without a connection it says it waits and goes on by itself; a refusal shows the
// server's words with Try again and Discard; Cancel stops it and forgets it, after asking.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { RetryCountdown } from '../../../../components/retry-countdown';
import { cancelPending, retryPending, type PendingProgress } from '../../hooks/pending-runner';

export function PendingCard({ pending }: { pending: PendingProgress }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const percent = pending.bytesTotal > 0 ? Math.round((pending.bytesDone / pending.bytesTotal) * 100) : 100;
  const stopped = pending.phase === 'refused' || pending.phase === 'stalled';

  let status: string;
  switch (pending.phase) {
    case 'offline':
      status = t('collections.import.pendingOffline');
      break;
    case 'creating':
      status = t('collections.import.pendingCreating', { count: pending.items });
      break;
    case 'retrying':
      status = '';
      break;
    case 'stalled':
      status = t('collections.import.pendingStalled');
      break;
    case 'refused':
      status = t('collections.import.pendingRefused');
      break;
    default:
      status = t('collections.import.pendingUploading', { done: pending.uploaded, total: pending.images });
  }

  return (
    <li className={`ci-pending ci-pending--${pending.phase}`} data-testid="collection-pending">
      <div className="ci-pending__head">
        <strong>{pending.name}</strong>
        <span className="ci-muted">{t('collections.import.pendingItems', { count: pending.items })}</span>
      </div>
      <div
        className="ci-progress"
        role="progressbar"
        aria-label={t('collections.import.pendingProgress', { name: pending.name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        data-testid="collection-pending-progress"
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <p className="ci-pending__status" role="status" data-testid="collection-pending-status">
        {pending.phase === 'retrying' && pending.retryAt !== null ? (
          <RetryCountdown
            nextAttemptAt={pending.retryAt}
            waitingKey="collections.import.pendingRetrying"
            dueKey="collections.import.pendingRetryingNow"
          />
        ) : (
          status
        )}
      </p>
      {stopped && pending.message && (
        <p className="ci-field__error" data-testid="collection-pending-message">
          {pending.message}
        </p>
      )}
      <div className="ci-pending__actions">
        {stopped && (
          <button type="button" className="btn btn--primary ci-small" onClick={() => void retryPending(pending.id)}>
            {t('collections.import.tryAgain')}
          </button>
        )}
        <button
          type="button"
          className="btn btn--danger-outline ci-small"
          data-testid="collection-pending-cancel"
          onClick={() => setConfirming(true)}
        >
          {stopped ? t('collections.import.discard') : t('collections.import.cancelUpload')}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('collections.import.cancelTitle')}
        message={t('collections.import.cancelBody', { name: pending.name })}
        confirmLabel={t('collections.import.cancelConfirm')}
        cancelLabel={t('collections.import.cancelKeep')}
        tone="danger"
        onConfirm={() => {
          setConfirming(false);
          void cancelPending(pending.id);
        }}
        onCancel={() => setConfirming(false)}
      />
    </li>
  );
}
