// Home's recent work: the newest images and videos from history, each opening its detail; the
// section's own loading, empty and error states.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { EmptyState } from '../../../components/empty-state';
import { HistoryIcon } from '../../../components/icons';
import { dateFormat } from '../../../i18n/formats';
import { Spinner } from '../../../components/spinner';
import { useRecentWork } from '../api/recent-work-query';
import { recentLink } from '../model/recent-work';

export function RecentWork({ canSeeHistory }: { canSeeHistory: boolean }) {
  const { t, i18n } = useTranslation();
  const recent = useRecentWork(canSeeHistory);
  const date = (iso: string) => dateFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const empty = <EmptyState icon={<HistoryIcon size={30} />} title={t('home.recentEmptyTitle')} description={t('home.recentEmptyBody')} testId="home-recent-empty" />;

  if (!canSeeHistory) return empty;
  if (recent.isPending) {
    return (
      <p className="home__muted" role="status">
        <Spinner size={16} /> {t('history.loading')}
      </p>
    );
  }
  if (!recent.data) {
    return (
      <div className="home__recent-failed" role="alert">
        <p>{t('history.recent.loadFailed', { message: recent.error?.message ?? '' })}</p>
        <button type="button" className="btn btn--ghost" onClick={() => void recent.refetch()}>
          {t('history.retry')}
        </button>
      </div>
    );
  }
  if (recent.data.length === 0) return empty;
  return (
    <>
      <ul className="home__recent-list" data-testid="home-recent">
        {recent.data.map((item) => {
          const title =
            item.kind === 'image' ? (item.label ?? t('history.imageNumber', { id: item.id })) : t('history.videoNumber', { id: item.id });
          return (
            <li key={`${item.kind}-${item.id}`}>
              <Link to={recentLink(item)} className="recent-card card" data-testid={`home-recent-${item.kind}-${item.id}`}>
                {item.thumbnailUrl ? <img src={item.thumbnailUrl} alt="" loading="lazy" /> : <span className="recent-card__blank" />}
                <span className="recent-card__text">
                  <strong>{title}</strong>
                  <span>
                    {t(item.kind === 'image' ? 'history.recent.image' : 'history.recent.video')} · {t(`history.status.${item.status}`)}
                  </span>
                  <span>{date(item.createdAt)}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
      <p>
        <Link to="/history" data-testid="home-recent-all">
          {t('history.recent.viewAll')} →
        </Link>
      </p>
    </>
  );
}
