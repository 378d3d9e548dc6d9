// Says so when a full disk made us delete something (least recently used first), and what it was.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { onMediaEvicted } from '../../lib/db/quota';

export function StorageNotices() {
  const { t } = useTranslation();
  useEffect(
    () =>
      onMediaEvicted(({ results, media }) => {
        if (results + media === 0) {
          toast.warning(t('storage.full'));
          return;
        }
        const lines = [
          results > 0 ? t('storage.evictedResults', { count: results }) : null,
          media > 0 ? t('storage.evictedMedia', { count: media }) : null,
        ].filter((line): line is string => line !== null);
        toast.warning(t('storage.evictedTitle'), { description: lines.join(' ') });
      }),
    [t],
  );
  return null;
}
