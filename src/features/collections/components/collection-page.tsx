// /collections/:id: a collection's review grid, live while it runs, and its exports. The view is
// a persisted query, so a collection opened once browses offline and after a reload; the event
// stream (followed while the collection runs or is paused) keeps it current and, after a cut,
// its next snapshot brings back what was missed. The filter is in the address (?show=failed).
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Banner } from '../../../components/banner';
import { FullScreenSpinner } from '../../../components/full-screen-spinner';
import { SavedAtNote } from '../../../components/offline/saved-at-note';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { useCollection } from '../api/collection-query';
import { useCollectionCommands } from '../hooks/use-collection-commands';
import { useCollectionEvents } from '../hooks/use-collection-events';
import { isFinished } from '../model/collection-events';
import { FILTER_PARAM, matchesFilter, parseFilter, type GridFilter } from '../model/collection-filter';
import { ExportPanel } from './export/export-panel';
import { CollectionControls } from './grid/collection-controls';
import { CollectionGrid } from './grid/collection-grid';
import { CollectionSummary } from './grid/collection-summary';
import { StatusFilter } from './grid/status-filter';
import './grid/collection-grid.css';

function idParam(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export default function CollectionPage() {
  const { t } = useTranslation();
  const id = idParam(useParams().id);
  if (id === null) {
    return (
      <div className="page cg-page" data-testid="collection-page">
        <Banner tone="error">{t('collections.grid.notFound')}</Banner>
      </div>
    );
  }
  return <CollectionReview key={id} id={id} />;
}

function CollectionReview({ id }: { id: number }) {
  const { t } = useTranslation();
  // The stream's state of the last render: the view is polled only while the stream is not live.
  const [live, setLive] = useState(false);
  const query = useCollection(id, !live);
  const view = query.data;
  const { online } = useOnlineStatus();
  const { stream, progress } = useCollectionEvents(id, !!view && !isFinished(view));
  useEffect(() => setLive(stream === 'live'), [stream]);
  const commands = useCollectionCommands(id, stream === 'live');
  const [params, setParams] = useSearchParams();
  const filter = parseFilter(params.get(FILTER_PARAM));

  const sorted = useMemo(() => [...(view?.items ?? [])].sort((a, b) => a.position - b.position), [view?.items]);
  const numbers = useMemo(() => new Map(sorted.map((item, index) => [item.id, index + 1])), [sorted]);
  const shown = useMemo(() => sorted.filter((item) => matchesFilter(item, filter)), [sorted, filter]);

  const setFilter = (next: GridFilter) => {
    const p = new URLSearchParams(params);
    if (next === 'all') p.delete(FILTER_PARAM);
    else p.set(FILTER_PARAM, next);
    setParams(p, { replace: true });
  };

  if (!view) {
    if (query.isPending) return <FullScreenSpinner />;
    const gone = query.error && 'status' in query.error && query.error.status === 404;
    return (
      <div className="page cg-page" data-testid="collection-page">
        <Banner tone="error" testId="collection-load-error">
          {gone ? t('collections.grid.notFound') : (query.error?.message ?? t('collections.grid.loadFailed'))}
        </Banner>
        <button type="button" className="btn btn--ghost" onClick={() => void query.refetch()}>
          {t('collections.grid.reload')}
        </button>
      </div>
    );
  }

  const filterCounts: Record<GridFilter, number> = {
    all: view.total || sorted.length,
    failed: view.counts.failed,
    review: view.counts.review,
    done: view.counts.done,
  };
  const done = view.counts.done;

  return (
    <div className="page cg-page" data-testid="collection-page" data-status={view.status} data-stream={stream}>
      <header className="page__header cg-header">
        <div className="cg-header__title">
          <Link to="/collections" className="cg-back">
            {t('collections.list.back')}
          </Link>
          <h1>{view.name}</h1>
          <p>
            <span className={`cg-badge cg-badge--${view.status}`} data-testid="collection-status" data-status={view.status}>
              {t(`collections.grid.collectionStatus.${view.status}`)}
            </span>{' '}
            {t('collections.grid.progressLine', { done, total: view.total || sorted.length })}{' '}
            <span className="cg-live" role="status" data-testid="collection-stream">
              {stream === 'live' ? t('collections.grid.live') : stream === 'waiting' || stream === 'connecting' ? t('collections.grid.reconnecting') : ''}
            </span>
          </p>
        </div>
        <CollectionControls view={view} commands={commands} />
      </header>
      {!online || query.isError ? <SavedAtNote savedAt={query.dataUpdatedAt} online={online} /> : null}
      <CollectionSummary view={view} />
      <StatusFilter value={filter} counts={filterCounts} onChange={setFilter} />
      {shown.length ? (
        <CollectionGrid items={shown} numbers={numbers} commands={commands} progress={progress} label={t('collections.grid.gridLabel', { name: view.name })} />
      ) : (
        <p className="cg-empty" data-testid="collection-empty">
          {t(`collections.grid.empty.${filter}`)}
        </p>
      )}
      <ExportPanel view={view} />
    </div>
  );
}
