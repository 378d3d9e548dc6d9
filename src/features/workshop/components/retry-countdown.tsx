// "Retrying in 8 s" while an item waits out the retry policy's delay before it is sent again.
// It ticks on its own, so the card around it re-renders only when the item changes.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secondsUntil } from '../../../lib/retry/retry-policy';

export function RetryCountdown({ nextAttemptAt }: { nextAttemptAt: number }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const seconds = secondsUntil({ nextAttemptAt }, now);
  useEffect(() => {
    if (seconds <= 0) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return <span data-seconds={seconds}>{seconds > 0 ? t('workshop.status.retryingIn', { seconds }) : t('workshop.status.retrying')}</span>;
}
