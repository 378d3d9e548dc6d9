// The update toast: a new version is ready → "Reload". Never reloads by itself; while work runs
// (uploads, batches, generation, syncing) it waits and says what it is waiting for.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useRunningWork } from '../../lib/offline/busy-work';
import { applyUpdate, useUpdateState } from '../../lib/offline/sw-registration';

const TOAST_ID = 'app-update';

export function UpdatePrompt() {
  const { t } = useTranslation();
  const update = useUpdateState();
  const work = useRunningWork();

  useEffect(() => {
    if (!update.available) return;
    if (update.applying && work.length > 0) {
      const reasons = work.map((w) => t(w)).join(t('offline.listSeparator'));
      toast.loading(t('update.waiting', { reasons }), { id: TOAST_ID, duration: Infinity });
      return;
    }
    if (update.applying) {
      toast.loading(t('update.reloading'), { id: TOAST_ID, duration: Infinity });
      return;
    }
    toast.info(t('update.available'), {
      id: TOAST_ID,
      duration: Infinity,
      description: work.length > 0 ? t('update.busyHint') : undefined,
      action: { label: t('update.reload'), onClick: () => void applyUpdate() },
      cancel: { label: t('update.later'), onClick: () => undefined },
    });
  }, [update.available, update.applying, work, t]);

  return null;
}
