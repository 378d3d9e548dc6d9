// Every refused file with its reason, until the user dismisses the list.
import { useTranslation } from 'react-i18next';
import type { Rejected } from '../model/add-files';
import { formatBytes } from '../model/format';

export function RejectedList({ rejected, onDismiss }: { rejected: readonly Rejected[]; onDismiss(): void }) {
  const { t } = useTranslation();
  if (rejected.length === 0) return null;
  return (
    <div className="ip-rejected" role="alert" data-testid="rejected-files">
      <div className="ip-rejected__head">
        <strong>{t('imageProcessing.upload.rejectedTitle', { count: rejected.length })}</strong>
        <button type="button" className="ip-button ip-button--ghost" onClick={onDismiss}>
          {t('imageProcessing.upload.dismiss')}
        </button>
      </div>
      <ul>
        {rejected.map((r, i) => (
          <li key={`${r.name}-${i}`} data-testid="rejected-file">
            <span className="ip-rejected__name">{r.name}</span>
            <span className="ip-rejected__size">{formatBytes(r.size)}</span>
            <span className="ip-rejected__reason">{t(`imageProcessing.upload.reason.${r.reason}`)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
