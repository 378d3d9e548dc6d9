// #/collections (ADMIN and GENERAL): the person's collections, newest first, kept for reading
// offline; the collections started on this device that are still going up; and "New collection",
// which opens the import (?new=1 in the address, so the back button closes it). A collection that
// reaches the server opens its own page.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { CollectionSummary } from '../../../../shared/collections/collection-types';
import { EmptyState } from '../../../components/empty-state';
import { CollectionIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { dateFormat } from '../../../i18n/formats';
import { isApiError } from '../../../lib/api';
import { currentUserKey } from '../../../lib/offline/user-key';
import { queryKeys } from '../../../lib/query/query-keys';
import { useSession } from '../../../lib/session/use-session';
import { useCollections } from '../api/collections-api';
import { onCollectionCreated } from '../hooks/pending-runner';
import { usePendingCollections } from '../hooks/use-pending-collections';
import { ImportFlow } from './import/import-flow';
import { PendingCard } from './import/pending-card';
import './collections.css';
import './import/import.css';

function CollectionRow({ item }: { item: CollectionSummary }) {
  const { t, i18n } = useTranslation();
  const done = item.counts.done ?? 0;
  const failed = item.counts.failed ?? 0;
  const created = dateFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(item.created_at));
  return (
    <li>
      <Link to={`/collections/${item.id}`} className="cl-item card" data-testid={`collection-${item.id}`}>
        <span className="cl-item__name">{item.name}</span>
        <span className={`cl-badge cl-badge--${item.status}`}>{t(`collections.list.status.${item.status}`)}</span>
        <span className="cl-item__meta">
          {t('collections.list.progress', { done, total: item.total })}
          {failed > 0 ? ` · ${t('collections.list.failed', { count: failed })}` : ''}
        </span>
        <span className="cl-item__meta">{t('collections.list.created', { date: created })}</span>
      </Link>
    </li>
  );
}

export default function CollectionsPage() {
  const { t } = useTranslation();
  const userKey = currentUserKey(useSession());
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const importing = params.get('new') === '1';
  const list = useCollections();
  const pending = usePendingCollections(userKey);

  useEffect(
    () =>
      onCollectionCreated(({ ref }) => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.collections.all });
        navigate(`/collections/${ref.id}`);
      }),
    [navigate, queryClient],
  );

  const openImport = () => setParams({ new: '1' });
  const closeImport = () => setParams({}, { replace: true });
  const items = list.data?.items ?? [];
  const listError = list.error && !list.data ? (isApiError(list.error) ? list.error.message : t('collections.list.error')) : null;

  return (
    <div className="page cl-page" data-testid="page-collections">
      <header className="page__header cl-header">
        <div>
          <h1>{t('nav.collections')}</h1>
          <p>{t('collections.list.subtitle')}</p>
        </div>
        {!importing && (
          <button type="button" className="btn btn--primary" onClick={openImport} data-testid="collection-new">
            {t('collections.list.new')}
          </button>
        )}
      </header>

      {pending.length > 0 && (
        <section className="ci-card" aria-labelledby="cl-pending-title">
          <h2 id="cl-pending-title">{t('collections.import.pendingTitle')}</h2>
          <ul className="ci-pending-list">
            {pending.map((p) => (
              <PendingCard key={p.id} pending={p} />
            ))}
          </ul>
        </section>
      )}

      {importing ? (
        <ImportFlow userKey={userKey} onClose={closeImport} onStarted={closeImport} />
      ) : (
        <section aria-labelledby="cl-list-title">
          <h2 id="cl-list-title" className="visually-hidden">
            {t('collections.list.title')}
          </h2>
          {list.isPending ? (
            <p className="cl-loading" role="status">
              <Spinner /> {t('collections.list.loading')}
            </p>
          ) : listError ? (
            <div className="ci-card ci-refused" role="alert" data-testid="collections-error">
              <p>{listError}</p>
              <button type="button" className="btn btn--ghost" onClick={() => void list.refetch()}>
                {t('collections.list.retry')}
              </button>
            </div>
          ) : items.length === 0 ? (
            <EmptyState
              icon={<CollectionIcon size={30} />}
              title={t('collections.list.emptyTitle')}
              description={t('collections.list.emptyBody')}
              testId="collections-empty"
            >
              <button type="button" className="btn btn--primary" onClick={openImport}>
                {t('collections.list.new')}
              </button>
            </EmptyState>
          ) : (
            <ul className="cl-list" data-testid="collections-list">
              {items.map((item) => (
                <CollectionRow key={item.id} item={item} />
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
