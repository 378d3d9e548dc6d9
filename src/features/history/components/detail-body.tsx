// A detail dialog's body: a spinner while it loads, the failure with Retry when nothing could be
// loaded, and otherwise the detail, with the "saved at" note when it is the copy kept on the device.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SavedAtNote } from '../../../components/offline/saved-at-note';
import { Spinner } from '../../../components/spinner';
import { useOnlineStatus } from '../../../lib/offline/online-status';

interface DetailQuery {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  dataUpdatedAt: number;
  refetch(): unknown;
}

export function DetailBody<T>({
  query,
  value,
  children,
}: {
  query: DetailQuery;
  value: T | undefined;
  children: (value: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { online } = useOnlineStatus();
  if (query.isPending)
    return (
      <div className="history-state" role="status">
        <Spinner /> {t('history.loadingDetail')}
      </div>
    );
  if (value === undefined)
    return (
      <div className="history-state history-state--error" role="alert" data-testid="detail-load-failed">
        <p>{t('history.detailLoadFailed', { message: query.error?.message ?? '' })}</p>
        <button type="button" className="btn btn--primary" onClick={() => void query.refetch()}>
          {t('history.retry')}
        </button>
      </div>
    );
  return (
    <>
      {!online || query.isError ? <SavedAtNote savedAt={query.dataUpdatedAt} online={online} /> : null}
      {children(value)}
    </>
  );
}
