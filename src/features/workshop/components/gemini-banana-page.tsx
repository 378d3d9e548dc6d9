// #/gemini-banana (ADMIN; the server refuses everyone else): the Gemini-Banana workshop. Items of
// text, images or both are queued on the device, sent a few at a time, enhanced by the model the
// server offers, and kept: on the server, and on the device through the persisted query cache
// (readable offline) and the IndexedDB waiting line (sent after a reload or a lost connection).
// A running item's text shows as it is written, from its event stream.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { EmptyState } from '../../../components/empty-state';
import { SparklesIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { isApiError } from '../../../lib/api';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { currentUserKey } from '../../../lib/offline/user-key';
import { useSession } from '../../../lib/session/use-session';
import { flattenItems, useWorkshopItems, useWorkshopModels } from '../api/workshop-queries';
import { useWorkshopQueue } from '../hooks/use-workshop-queue';
import { useWorkshopStreams } from '../hooks/use-workshop-streams';
import { loadDraft, resolveModel, saveDraft, toRequestConfig, type ConfigDraft } from '../model/workshop-config';
import { isRunning, type WorkshopType } from '../model/workshop-item';
import { QUEUE_CONCURRENCY } from '../model/workshop-queue';
import { ConfigPanel } from './config-panel';
import { ItemComposer } from './item-composer';
import { QueueList } from './queue-list';
import './workshop.css';

export default function GeminiBananaPage() {
  const { t } = useTranslation();
  const session = useSession();
  const userKey = currentUserKey(session);
  const { online } = useOnlineStatus();
  const models = useWorkshopModels();
  const [streamed, setStreamed] = useState<ReadonlySet<number>>(() => new Set());
  const itemsQuery = useWorkshopItems(streamed);
  const items = useMemo(() => flattenItems(itemsQuery.data?.pages), [itemsQuery.data]);
  // Running items are followed by their event streams (their text as it is written); the list is
  // polled only for those no stream follows.
  const streams = useWorkshopStreams(items);
  useEffect(() => setStreamed(streams.streamed), [streams.streamed]);
  const running = items.filter((i) => isRunning(i.status)).length;
  const queue = useWorkshopQueue(userKey, running);

  const [draft, setDraft] = useState<ConfigDraft>(() => loadDraft(localStorage, userKey));
  useEffect(() => setDraft(loadDraft(localStorage, userKey)), [userKey]);
  const changeDraft = useCallback(
    (next: ConfigDraft) => {
      setDraft(next);
      saveDraft(localStorage, userKey, next);
    },
    [userKey],
  );
  const model = resolveModel(draft.model, models.data);

  const forbidden = [models.error, itemsQuery.error].some((e) => isApiError(e) && e.status === 403);
  const modelsError = models.error ? (isApiError(models.error) ? models.error.message : t('workshop.errors.modelsFailed')) : null;
  const listError = itemsQuery.error && !itemsQuery.data ? (isApiError(itemsQuery.error) ? itemsQuery.error.message : t('workshop.errors.listFailed')) : null;

  async function add(input: { type: WorkshopType; text: string; files: File[] }) {
    await queue.add({
      type: input.type,
      text: input.text,
      files: input.files.map((f) => ({ name: f.name, type: f.type, blob: f })),
      config: toRequestConfig(draft, models.data),
    });
    toast.success(online ? t('workshop.compose.added') : t('workshop.compose.addedOffline'));
  }

  if (forbidden) {
    return (
      <div className="page">
        <header className="page__header">
          <h1>{t('nav.geminiBanana')}</h1>
        </header>
        <EmptyState
          icon={<SparklesIcon size={30} />}
          title={t('workshop.forbiddenTitle')}
          description={t('workshop.forbiddenBody')}
          testId="workshop-forbidden"
        />
      </div>
    );
  }

  const empty = queue.entries.length === 0 && items.length === 0;
  return (
    <div className="page ws-page" data-testid="page-gemini-banana">
      <header className="page__header">
        <h1>{t('nav.geminiBanana')}</h1>
        <p>{t('pages.geminiBanana.subtitle')}</p>
      </header>
      {!online && (
        <p className="ws-offline" role="status" data-testid="workshop-offline">
          {t('workshop.offline')}
        </p>
      )}
      <div className="ws-layout">
        <div className="ws-column">
          <ItemComposer onAdd={add} disabled={!userKey} />
          <ConfigPanel
            draft={draft}
            model={model}
            models={models.data}
            modelsLoading={models.isPending}
            modelsError={modelsError}
            onRetryModels={() => void models.refetch()}
            onChange={changeDraft}
          />
        </div>
        <section className="ws-column ws-card" aria-labelledby="ws-queue-title">
          <div className="ws-queue-head">
            <h2 id="ws-queue-title" className="ws-card__title">
              {t('workshop.queue.title')}
            </h2>
            <span className="ws-help">{t('workshop.queue.concurrency', { count: QUEUE_CONCURRENCY })}</span>
          </div>
          {listError && (
            <div className="ws-error" role="alert" data-testid="workshop-list-error">
              {listError}{' '}
              <button type="button" className="ws-button ws-button--small" onClick={() => void itemsQuery.refetch()}>
                {t('workshop.retry')}
              </button>
            </div>
          )}
          {itemsQuery.isPending && !listError ? (
            <div className="ws-loading">
              <Spinner /> {t('workshop.queue.loading')}
            </div>
          ) : empty && !listError ? (
            <EmptyState
              icon={<SparklesIcon size={30} />}
              title={t('workshop.queue.emptyTitle')}
              description={t('workshop.queue.emptyBody')}
              testId="workshop-empty"
            />
          ) : (
            <QueueList
              entries={queue.entries}
              items={items}
              live={streams.live}
              online={online}
              onRemoveEntry={(id) => void queue.removeEntry(id)}
              onResendEntry={(id) => void queue.resendEntry(id)}
              onCancelItem={queue.cancelItem}
              onRetryItem={queue.retryItem}
            />
          )}
          {itemsQuery.hasNextPage && (
            <button
              type="button"
              className="ws-button"
              disabled={itemsQuery.isFetchingNextPage}
              onClick={() => void itemsQuery.fetchNextPage()}
            >
              {itemsQuery.isFetchingNextPage ? t('workshop.queue.loading') : t('workshop.queue.loadMore')}
            </button>
          )}
        </section>
      </div>
    </div>
  );
}
