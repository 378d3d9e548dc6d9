// One tab of history: the items newest first, load more by button or when the end comes into
// view, each with its thumbnail and status; loading, empty and error states.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { HistoryIcon } from '../../../components/icons';
import { dateFormat } from '../../../i18n/formats';
import { Spinner } from '../../../components/spinner';
import { SavedAtNote } from '../../../components/offline/saved-at-note';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { useHistoryList } from '../api/history-list-query';
import { useVideoEvents } from '../hooks/use-video-events';
import { isRunning, mergePages } from '../model/history-pages';
import type { GeneratedImage, HistoryKind, VideoGeneration } from '../model/history-types';
import { HistoryThumb } from './history-thumb';
import { StatusBadge } from './status-badge';

interface Props {
  kind: HistoryKind;
  onOpen: (id: number) => void;
}

function useFormatDate() {
  const { i18n } = useTranslation();
  return (iso: string | null) =>
    iso ? dateFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : '';
}

export function HistoryList({ kind, onOpen }: Props) {
  const { t } = useTranslation();
  const { online } = useOnlineStatus();
  const live = useRef(false);
  const list = useHistoryList(kind, { live });
  const runningVideos =
    kind === 'videos' ? mergePages(list.data?.pages ?? []).filter((item) => isRunning(item.status)).map((item) => item.id) : [];
  live.current = useVideoEvents(runningVideos);
  const formatDate = useFormatDate();
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError } = list;

  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage && !isError) void fetchNextPage();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, isError]);

  if (list.isPending) {
    return (
      <div className="history-state" role="status" data-testid="history-loading">
        <Spinner /> {t('history.loading')}
      </div>
    );
  }
  if (!list.data) {
    return (
      <div className="history-state history-state--error" role="alert" data-testid="history-load-failed">
        <p>{t('history.loadFailed', { message: list.error?.message ?? '' })}</p>
        <button type="button" className="btn btn--primary" onClick={() => void list.refetch()}>
          {t('history.retry')}
        </button>
      </div>
    );
  }
  const items = mergePages(list.data.pages);
  const stale = !online || list.isError;
  return (
    <>
      {stale ? <SavedAtNote savedAt={list.dataUpdatedAt} online={online} /> : null}
      {items.length === 0 ? (
        <EmptyState
          icon={<HistoryIcon size={30} />}
          title={t(kind === 'images' ? 'history.emptyImagesTitle' : 'history.emptyVideosTitle')}
          description={t('history.emptyBody')}
          testId="history-empty"
        />
      ) : (
        <ul className="history-grid" data-testid={`history-${kind}-list`}>
          {items.map((item) =>
            kind === 'images' ? (
              <ImageCard key={item.id} image={item as GeneratedImage} onOpen={onOpen} date={formatDate(item.created_at)} />
            ) : (
              <VideoCard key={item.id} video={item as VideoGeneration} onOpen={onOpen} date={formatDate(item.created_at)} />
            ),
          )}
        </ul>
      )}
      {list.isFetchNextPageError ? (
        <p className="history-state history-state--error" role="alert">
          {t('history.loadFailed', { message: list.error?.message ?? '' })}
        </p>
      ) : null}
      <div ref={sentinel} className="history-more">
        {hasNextPage ? (
          <button
            type="button"
            className="btn btn--ghost"
            data-testid="history-load-more"
            disabled={isFetchingNextPage || !online}
            onClick={() => void fetchNextPage()}
          >
            {isFetchingNextPage ? <Spinner /> : null}
            {isFetchingNextPage ? t('history.loadingMore') : t('history.loadMore')}
          </button>
        ) : items.length > 0 ? (
          <p className="history-muted" data-testid="history-end">{t('history.end', { count: items.length })}</p>
        ) : null}
      </div>
    </>
  );
}

function ImageCard({ image, onOpen, date }: { image: GeneratedImage; onOpen: (id: number) => void; date: string }) {
  const { t } = useTranslation();
  const title = image.label ?? t('history.imageNumber', { id: image.id });
  return (
    <li className="history-card card" data-testid={`history-image-${image.id}`}>
      <HistoryThumb src={image.thumbnail_url ?? image.url} alt={title} testId="history-thumb" />
      <button type="button" className="history-card__open" onClick={() => onOpen(image.id)} data-testid="history-open">
        <strong>{title}</strong>
        <span className="history-card__meta">
          <StatusBadge status={image.status} />
          <span>{date}</span>
        </span>
        {image.status === 'failed' && image.error ? <span className="history-card__error">{image.error.message}</span> : null}
      </button>
    </li>
  );
}

function VideoCard({ video, onOpen, date }: { video: VideoGeneration; onOpen: (id: number) => void; date: string }) {
  const { t } = useTranslation();
  const title = t('history.videoNumber', { id: video.id });
  return (
    <li className="history-card card" data-testid={`history-video-${video.id}`}>
      <HistoryThumb src={video.thumbnail_url} alt={title} testId="history-thumb" />
      <button type="button" className="history-card__open" onClick={() => onOpen(video.id)} data-testid="history-open">
        <strong>{title}</strong>
        <span className="history-card__meta">
          <StatusBadge status={video.status} progress={video.progress} />
          <span>{t('history.durationSeconds', { count: video.duration })}</span>
          {video.resolution ? <span>{video.resolution}</span> : null}
        </span>
        <span className="history-card__meta">{date}</span>
        {video.status === 'failed' && video.error ? <span className="history-card__error">{video.error.message}</span> : null}
      </button>
    </li>
  );
}
