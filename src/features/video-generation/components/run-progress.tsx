// A running stream's progress: the message, a bar, elapsed time against the spec's estimate,
// a retry wait when the server is retrying, and the error with a retry button.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StreamState } from '../model/run-state';

interface Props {
  state: StreamState;
  estimateKey: 'videoGeneration.estimate.analysis' | 'videoGeneration.estimate.videos' | 'videoGeneration.estimate.prompts';
  onCancel?: () => void;
  onRetry?: () => void;
  testId: string;
}

export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function RunProgress({ state, estimateKey, onCancel, onRetry, testId }: Props) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!state.running) return;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [state.running]);
  const elapsed = state.startedAt ? formatElapsed(now - state.startedAt) : '0:00';
  return (
    <div className="vg-progress" data-testid={testId}>
      {state.error ? (
        <div className="vg-error" role="alert">
          <p data-testid={`${testId}-error`}>{state.error}</p>
          {onRetry ? (
            <button type="button" className="btn btn--primary vg-touch" onClick={onRetry} data-testid={`${testId}-retry`}>
              {t('videoGeneration.actions.retry')}
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <div className="vg-progress__row">
            <span role="status" aria-live="polite" data-testid={`${testId}-message`}>
              {state.message}
            </span>
            <span className="vg-muted">
              {t('videoGeneration.estimate.elapsed', { elapsed })} · {t(estimateKey)}
            </span>
          </div>
          <progress max={100} value={state.progress} aria-label={t('videoGeneration.progress.label')} />
          {state.retryInMs ? (
            <p className="vg-muted">{t('videoGeneration.progress.retrying', { seconds: Math.ceil(state.retryInMs / 1000) })}</p>
          ) : null}
        </>
      )}
      {state.running && onCancel ? (
        <button type="button" className="btn btn--ghost vg-touch" onClick={onCancel} data-testid={`${testId}-cancel`}>
          {t('videoGeneration.actions.cancel')}
        </button>
      ) : null}
    </div>
  );
}
