// A thumbnail from the server's thumbnail link. A failed load says so and offers a retry, which
// asks for the image again.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  src: string | null;
  alt: string;
  testId?: string;
}

export function HistoryThumb({ src, alt, testId }: Props) {
  const { t } = useTranslation();
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  if (!src) return <span className="history-thumb history-thumb--none" aria-hidden="true" />;
  if (failed) {
    return (
      <span className="history-thumb history-thumb--failed" data-testid={testId ? `${testId}-failed` : undefined}>
        <span>{t('history.imageLoadFailed')}</span>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={(event) => {
            event.stopPropagation();
            setFailed(false);
            setAttempt((n) => n + 1);
          }}
        >
          {t('history.retry')}
        </button>
      </span>
    );
  }
  return (
    <img
      key={attempt}
      className="history-thumb"
      src={src}
      alt={alt}
      loading="lazy"
      data-testid={testId}
      onError={() => setFailed(true)}
    />
  );
}
