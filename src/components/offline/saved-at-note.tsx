// "Offline — saved 5 minutes ago": shown above cached data when the network is not answering.
import { useTranslation } from 'react-i18next';
import { formatRelativeTime } from '../../lib/offline/relative-time';
import { useNow } from './use-now';
import './offline.css';

export function SavedAtNote({ savedAt, online }: { savedAt: number; online: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const time = formatRelativeTime(savedAt, Math.max(now, savedAt), i18n.resolvedLanguage ?? 'zh-CN');
  return (
    <p className="saved-at-note" role="status" data-testid="saved-at-note">
      {online ? t('offline.unreachableSaved', { time }) : t('offline.offlineSaved', { time })}
    </p>
  );
}
