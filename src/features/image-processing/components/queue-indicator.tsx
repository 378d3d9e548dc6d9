// The shell's small batch indicator: progress of the upscale queue on every page, a tap away from
// the image enhancement page. Mounting it also resumes a batch left unfinished by a reload.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { resumeUpscaleQueueIfNeeded } from '../../../lib/workers/upscale-queue-bridge';
import { useUpscaleQueue } from '../hooks/use-upscale-queue';
import './queue-indicator.css';

export function QueueIndicator() {
  const { t } = useTranslation();
  const { snapshot, counts } = useUpscaleQueue();

  useEffect(() => {
    void resumeUpscaleQueueIfNeeded();
  }, []);

  if (counts.open === 0) return null;
  const done = counts.completed + counts.failed + counts.cancelled;
  const onDevice = counts.onDevice > 0;
  const paused = snapshot.paused !== null && !onDevice;
  const label = onDevice
    ? t('imageProcessing.queue.indicatorOnDevice', { done, total: counts.total })
    : paused
      ? t('imageProcessing.queue.indicatorPaused', { done, total: counts.total })
      : counts.retrying > 0
        ? t('imageProcessing.queue.indicatorRetrying', { done, total: counts.total })
        : t('imageProcessing.queue.indicator', { done, total: counts.total });
  return (
    <Link
      to="/image-processing"
      className={`queue-indicator${paused ? ' queue-indicator--paused' : ''}`}
      data-testid="queue-indicator"
      data-retrying={counts.retrying > 0}
      aria-label={`${label} — ${t('imageProcessing.queue.open')}`}
    >
      <span
        className="queue-indicator__ring"
        aria-hidden="true"
        style={{ ['--p' as string]: `${(done / Math.max(1, counts.total)) * 100}%` }}
      />
      <span>{label}</span>
    </Link>
  );
}
