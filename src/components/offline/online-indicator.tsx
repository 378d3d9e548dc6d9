// The shell's connection badge: online, or offline with how many changes wait to be sent.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { onOutboxGaveUp } from '../../lib/offline/app-outbox';
import { useOnlineStatus } from '../../lib/offline/online-status';
import { useOutboxItems } from '../../lib/offline/use-outbox-items';
import { currentUserKey } from '../../lib/offline/user-key';
import { useSession } from '../../lib/session/use-session';
import './offline.css';

export function OnlineIndicator() {
  const { t } = useTranslation();
  const { online } = useOnlineStatus();
  const pending = useOutboxItems(currentUserKey(useSession())).items.filter((i) => i.state === 'pending').length;
  // After the retry budget the changes stay queued; say so once, calmly.
  useEffect(() => onOutboxGaveUp(() => toast.warning(t('offline.outboxGaveUp'))), [t]);
  return (
    <div className={`online-indicator${online ? '' : ' online-indicator--offline'}`} role="status" aria-live="polite" data-testid="online-indicator" data-online={online}>
      <span className="online-indicator__dot" aria-hidden="true" />
      <span>{online ? t('offline.online') : t('offline.offline')}</span>
      {pending > 0 ? <span className="online-indicator__pending">{t('offline.pending', { count: pending })}</span> : null}
    </div>
  );
}
