import { useTranslation } from 'react-i18next';
import type { HistoryStatus } from '../model/history-types';

export function StatusBadge({ status, progress }: { status: HistoryStatus; progress?: number }) {
  const { t } = useTranslation();
  const showProgress = status === 'generating' && progress !== undefined && progress > 0;
  return (
    <span className={`history-status history-status--${status}`} data-testid="history-status" data-status={status}>
      {t(`history.status.${status}`)}
      {showProgress ? ` ${Math.round(progress)}%` : null}
    </span>
  );
}
