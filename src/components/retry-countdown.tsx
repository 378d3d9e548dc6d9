// "Retrying in 8 s" for work waiting out the retry policy's delay before it is sent again. It ticks
// on its own, so the card around it re-renders only when the item itself changes.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secondsUntil } from '../lib/retry/retry-policy';

interface Props {
  nextAttemptAt: number;
  /** i18n key with {{seconds}}, shown while waiting. */
  waitingKey: string;
  /** i18n key shown once the wait is over and the next try is on its way. */
  dueKey: string;
  testId?: string;
}

export function RetryCountdown({ nextAttemptAt, waitingKey, dueKey, testId }: Props) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const seconds = secondsUntil({ nextAttemptAt }, now);
  useEffect(() => {
    if (seconds <= 0) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return (
    <span data-testid={testId} data-seconds={seconds}>
      {seconds > 0 ? t(waitingKey, { seconds }) : t(dueKey)}
    </span>
  );
}
