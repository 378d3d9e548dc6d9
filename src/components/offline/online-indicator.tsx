// The shell's connection badge: online, or offline with how many changes wait to be sent.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { onOutboxGaveUp, outbox } from '../../lib/offline/app-outbox';
import { useOnlineStatus } from '../../lib/offline/online-status';
import { currentUserKey } from '../../lib/offline/user-key';
import { useSession } from '../../lib/session/use-session';
import './offline.css';

function usePendingCount(userKey: string | null): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!userKey) return undefined;
    let live = true;
    const load = () =>
      void outbox.list(userKey).then((items) => live && setCount(items.filter((i) => i.state === 'pending').length));
    load();
    const stop = outbox.subscribe(load);
    return () => {
      live = false;
      stop();
    };
  }, [userKey]);
  return userKey ? count : 0;
}

export function OnlineIndicator() {
  const { t } = useTranslation();
  const { online } = useOnlineStatus();
  const pending = usePendingCount(currentUserKey(useSession()));
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
