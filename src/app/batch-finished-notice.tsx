// Tells the user when an upscale batch ends, if they keep notifications on (settings): a system
// notification while the tab is in the background and the browser allows one, otherwise a toast
// (sonner holds it until the tab is seen again). On the image page itself the results say it.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { notificationsEnabled } from '../features/settings/model/notifications';
import { showSystemNotification } from '../lib/notifications/system-notification';
import { getQueueSnapshot, subscribeQueue } from '../lib/workers/upscale-queue-bridge';
import { createBatchEndTracker, type BatchOutcome } from './batch-end';

const RESULTS_PATH = '/image-processing';

export function BatchFinishedNotice() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const announce = useRef<(outcome: BatchOutcome) => void>(() => {});

  useEffect(() => {
    announce.current = (outcome) => {
      const title = t('settings.notifications.batchFinishedTitle');
      const body = t('settings.notifications.batchFinishedBody', {
        completed: outcome.completed,
        failed: outcome.failed,
      });
      const openResults = () => navigate(RESULTS_PATH);
      void (async () => {
        if (
          document.hidden &&
          (await showSystemNotification({ title, body, tag: 'upscale-batch', onClick: openResults }))
        )
          return;
        if (!document.hidden && pathname === RESULTS_PATH) return;
        const show = outcome.failed > 0 ? toast.warning : toast.success;
        show(title, {
          id: 'upscale-batch',
          description: body,
          action:
            pathname === RESULTS_PATH
              ? undefined
              : { label: t('settings.notifications.openResults'), onClick: openResults },
        });
      })();
    };
  }, [navigate, pathname, t]);

  // One tracker for the shell's lifetime: re-subscribing would forget the batch in progress.
  useEffect(() => {
    const tracker = createBatchEndTracker(Date.now());
    tracker.next(getQueueSnapshot());
    return subscribeQueue(() => {
      const outcome = tracker.next(getQueueSnapshot());
      if (outcome && notificationsEnabled()) announce.current(outcome);
    });
  }, []);

  return null;
}
