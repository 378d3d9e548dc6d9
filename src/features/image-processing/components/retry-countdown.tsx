// "Retrying in 8 s" for an item waiting out its retry delay. It ticks on its own, so the card
// around it re-renders only when the item itself changes.
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
  return (
    <span data-testid="item-retry-countdown" data-seconds={seconds}>
      {seconds > 0 ? t('imageProcessing.status.retryingIn', { seconds }) : t('imageProcessing.status.retrying')}
    </span>
  );
}
