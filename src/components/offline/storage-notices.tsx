// Says so when a full disk made us delete cached media (least recently used first).
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { onMediaEvicted } from '../../lib/db/quota';

export function StorageNotices() {
  const { t } = useTranslation();
  useEffect(
    () => onMediaEvicted(({ evictedCount }) => toast.warning(evictedCount > 0 ? t('storage.evicted', { count: evictedCount }) : t('storage.full'))),
    [t],
  );
  return null;
}
