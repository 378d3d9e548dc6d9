// Steps 7 and 8: each video's progress (followed through the events stream), cancel, retry of a
// failed one from its original parameters; when done each video plays, downloads and links to
// its history entry.
import { useTranslation } from 'react-i18next';
import { isFinished, isLocalPreview, type VideoView } from '../model/generation-types';
import type { VideoDraft } from '../model/draft';
import type { StreamState } from '../model/run-state';
import { RunProgress } from './run-progress';
import { LocalPreviewBadge } from './local-preview-badge';

interface Props {
  draft: VideoDraft;
  busy: StreamState;
  onRetry: (id: number) => void;
  onCancel: (id: number) => void;
  onRetryCreate: () => void;
}

export function VideosStep({ draft, busy, onRetry, onCancel, onRetryCreate }: Props) {
  const { t } = useTranslation();
  const overall = draft.videos.length
    ? Math.round(draft.videos.reduce((sum, v) => sum + (isFinished(v.status) ? 100 : v.progress), 0) / draft.videos.length)
    : 0;
  return (
    <div className="vg-stack">
      {draft.videos.some(isLocalPreview) ? <LocalPreviewBadge /> : null}
      {draft.step === 'videos' ? (
        <RunProgress
          state={{ ...busy, progress: overall, message: busy.message || t('videoGeneration.progress.generating') }}
          estimateKey="videoGeneration.estimate.videos"
          onRetry={draft.videos.length === 0 ? onRetryCreate : undefined}
          testId="videos-progress"
        />
      ) : (
        <p className="vg-done" role="status" data-testid="complete-message">
          {t('videoGeneration.complete.summary', {
            done: draft.videos.filter((v) => v.status === 'completed').length,
            count: draft.videos.length,
          })}
        </p>
      )}
      <ul className="vg-videos">
        {draft.videos.map((video) => (
          <VideoCard key={video.id} video={video} onRetry={onRetry} onCancel={onCancel} />
        ))}
      </ul>
    </div>
  );
}

function VideoCard({ video, onRetry, onCancel }: { video: VideoView; onRetry: (id: number) => void; onCancel: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <li className="vg-card vg-video" data-testid="video-card" data-status={video.status}>
      <div className="vg-row">
        <strong>{t('videoGeneration.videos.title', { id: video.id })}</strong>
        <span className="vg-muted" data-testid="video-status">
          {t(`videoGeneration.videos.status.${video.status}`)}
        </span>
      </div>
      {video.status === 'completed' && video.url ? (
        <>
          <video controls playsInline preload="metadata" src={video.url} poster={video.thumbnail_url ?? undefined} data-testid="video-player">
            {t('videoGeneration.videos.unsupported')}
          </video>
          <div className="vg-actions">
            <a className="btn btn--primary vg-touch" href={video.url} download={`video-${video.id}.mp4`} data-testid="video-download">
              {t('videoGeneration.videos.download')}
            </a>
            <a className="btn btn--ghost vg-touch" href={`#/history?video=${video.id}`} data-testid="video-history">
              {t('videoGeneration.videos.history')}
            </a>
          </div>
        </>
      ) : null}
      {!isFinished(video.status) ? (
        <>
          <progress max={100} value={video.progress} aria-label={t('videoGeneration.videos.progress', { id: video.id })} />
          {video.progress_message ? (
            <p className="vg-muted" aria-live="polite" data-testid="video-progress-message">
              {video.progress_message}
            </p>
          ) : null}
          <button type="button" className="btn btn--ghost vg-touch" onClick={() => onCancel(video.id)}>
            {t('videoGeneration.actions.cancel')}
          </button>
        </>
      ) : null}
      {video.status === 'failed' ? (
        <div className="vg-error" role="alert">
          <p>{video.error?.message ?? t('videoGeneration.errors.video')}</p>
          <button type="button" className="btn btn--primary vg-touch" onClick={() => onRetry(video.id)} data-testid="video-retry">
            {t('videoGeneration.actions.retry')}
          </button>
        </div>
      ) : null}
    </li>
  );
}
