// The image enhancement page: add images, pick a model, start the batch, follow it. The batch
// itself runs in the queue worker, so leaving this page does not stop it.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { currentUserKey } from '../../../lib/offline/user-key';
import { useSession } from '../../../lib/session/use-session';
import { getQueueSnapshot, resumeUpscaleQueueIfNeeded } from '../../../lib/workers/upscale-queue-bridge';
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { useProgressiveCount } from '../hooks/use-progressive-count';
import { useSourceFiles } from '../hooks/use-source-files';
import { useUpscaleModels } from '../hooks/use-upscale-models';
import { queueActions, useUpscaleQueue, type QueueActions } from '../hooks/use-upscale-queue';
import type { SourceFile } from '../model/file-store';
import { defaultModel } from '../model/model-catalog';
import { suggestFromNoise } from '../model/noise-suggestion';
import { loadQueuedFileIds, splitByQueued } from '../model/queued-file-ids';
import { readSettings, writeSettings, type UpscaleSettings } from '../model/upscale-settings';
import { AdvancedOptions } from './advanced-options';
import { ModelPicker } from './model-picker';
import { PendingFiles } from './pending-files';
import { QueueToolbar } from './queue-toolbar';
import { RejectedList } from './rejected-list';
import { ResultCard } from './result-card';
import { UploadZone } from './upload-zone';
import { VariantPreviewDialog } from './variant-preview-dialog';
import './upscale-workspace.css';

export interface WorkspaceSlots {
  /** Extra batch actions next to the queue toolbar (the ZIP download). */
  batchActions?: (completed: QueueItem[]) => ReactNode;
  /** Opens a finished item in the comparison or the viewer. */
  onOpen?: (item: QueueItem, mode: 'compare' | 'view') => void;
}

export function UpscaleWorkspace({ batchActions, onOpen }: WorkspaceSlots) {
  const { t } = useTranslation();
  const owner = currentUserKey(useSession());
  const sources = useSourceFiles(owner);
  const catalog = useUpscaleModels();
  const { snapshot, counts } = useUpscaleQueue();
  const [settings, setSettings] = useState<UpscaleSettings>(readSettings);
  const [starting, setStarting] = useState(false);
  const [previewing, setPreviewing] = useState<SourceFile | null>(null);
  const resultsRef = useRef<HTMLElement>(null);

  const patchSettings = useCallback((patch: Partial<UpscaleSettings>) => {
    setSettings((prev) => {
      const next = { ...prev, ...patch };
      writeSettings(next);
      return next;
    });
  }, []);

  const model = catalog.models.find((m) => m.name === settings.modelName) ?? defaultModel(catalog.models);
  const pending = useMemo(() => sources.files.filter((f) => !f.queued), [sources.files]);
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const fileById = useMemo(() => new Map(sources.files.map((f) => [f.id, f])), [sources.files]);
  const completed = useMemo(() => snapshot.items.filter((i) => i.status === 'completed'), [snapshot.items]);
  // The grid renders at low priority in slices, so a 40-image batch never blocks input.
  const gridItems = useDeferredValue(snapshot.items);
  const mounted = useProgressiveCount(gridItems.length);

  // Queue items are the only users of a queued file: when they go, the file goes too.
  const { removeOrphans } = sources;
  const actions = useMemo<QueueActions>(() => {
    const tidy = async () => {
      await removeOrphans(new Set(getQueueSnapshot().items.map((i) => i.fileId)));
    };
    return {
      ...queueActions,
      remove: async (id) => {
        await queueActions.remove(id);
        await tidy();
      },
      clearFinished: async () => {
        await queueActions.clearFinished();
        await tidy();
      },
    };
  }, [removeOrphans]);

  const start = async () => {
    if (!model || pending.length === 0 || !owner) return;
    setStarting(true);
    try {
      const batch = [...pending];
      // A file that already has a queue item (a crash came between enqueue and markQueued) is
      // only marked, never sent again.
      const { fresh } = splitByQueued(batch, await loadQueuedFileIds(owner));
      if (fresh.length > 0) {
        await queueActions.enqueue(
          fresh.map((f) => ({ fileId: f.id, name: f.name, type: f.type, size: f.size, blob: f.blob })),
          {
            modelName: model.name,
            scale: model.scale,
            tileMode: settings.tileMode,
            cacheMode: settings.cacheMode,
            alpha: settings.alpha,
            ...(settings.where === 'device' ? { onDevice: true } : {}),
          },
        );
      }
      await sources.markQueued(batch.map((f) => f.id));
      // On a tablet the batch is below the fold: bring it into view.
      resultsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    } finally {
      setStarting(false);
    }
  };

  // After such a crash the files would show as pending: put them where they belong at load.
  const { loaded, markQueued, remove } = sources;
  useEffect(() => {
    if (!owner || !loaded) return;
    let live = true;
    void loadQueuedFileIds(owner)
      .then((queued) => {
        const stale = pendingRef.current.filter((f) => queued.has(f.id)).map((f) => f.id);
        if (live && stale.length > 0) return markQueued(stale);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [owner, loaded, markQueued]);

  const removeFiles = useCallback((ids: string[]) => void remove(ids), [remove]);
  const chooseModel = useCallback((modelName: string) => patchSettings({ modelName }), [patchSettings]);
  const applyVariant = useCallback(
    (modelName: string) => {
      patchSettings({ modelName });
      setPreviewing(null);
      const chosen = catalog.models.find((m) => m.name === modelName);
      toast.success(t('imageProcessing.variants.applied', { model: chosen?.displayName ?? modelName }));
    },
    [patchSettings, catalog.models, t],
  );
  const previewSuggestion =
    previewing?.noise && model
      ? suggestFromNoise(previewing.noise, model.scale, catalog.models)?.modelName
      : undefined;

  // Only the start button's handler changes with every render; the memoised panel calls the latest.
  const startRef = useRef(start);
  startRef.current = start;
  const onStart = useCallback(() => void startRef.current(), []);
  const { add: addSources, rejected, dismissRejected } = sources;
  // The setup panel (drop zone, pending files, model, options) is the same element while its
  // inputs are: a running batch re-renders this page on every queue snapshot (10 a second), and
  // rebuilding the panel each time cost 10-20 ms of main thread on this machine.
  const setup = useMemo(
    () => (
      <section className="ip-setup">
        <div className="ip-setup__sources">
          <UploadZone onFiles={(files) => void addSources(files)} disabled={!owner} />
          <RejectedList rejected={rejected} onDismiss={dismissRejected} />
          <PendingFiles
            files={pending}
            models={catalog.models}
            selected={model}
            onRemove={removeFiles}
            onUseModel={chooseModel}
            onPreview={setPreviewing}
          />
        </div>
        <div className="ip-setup__options">
          <ModelPicker
            catalog={catalog}
            selected={model}
            onSelect={(m) => patchSettings({ modelName: m.name })}
          />
          <AdvancedOptions settings={settings} onChange={patchSettings} />
          <button
            type="button"
            className="ip-button ip-button--primary ip-button--block"
            disabled={!model || pending.length === 0 || starting}
            onClick={onStart}
            data-testid="start-upscale"
          >
            {pending.length > 0
              ? t('imageProcessing.actions.start', { count: pending.length })
              : t('imageProcessing.actions.startEmpty')}
          </button>
        </div>
      </section>
    ),
    [
      t,
      owner,
      addSources,
      rejected,
      dismissRejected,
      pending,
      catalog,
      model,
      removeFiles,
      chooseModel,
      patchSettings,
      settings,
      starting,
      onStart,
    ],
  );

  // A reload with unfinished work: the queue worker picks the batch up again.
  useEffect(() => {
    if (owner) void resumeUpscaleQueueIfNeeded();
  }, [owner]);

  return (
    <div className="ip-page" data-testid="image-processing-page">
      <header className="ip-page__head">
        <h1>{t('imageProcessing.title')}</h1>
        <p>{t('imageProcessing.subtitle')}</p>
      </header>

      {setup}

      <section className="ip-results" ref={resultsRef} aria-label={t('imageProcessing.queue.title')}>
        <div className="ip-results__bar">
          <QueueToolbar counts={counts} paused={snapshot.paused} actions={actions} />
          {completed.length > 0 && batchActions?.(completed)}
        </div>
        {gridItems.length === 0 ? (
          <p className="ip-empty">{t('imageProcessing.queue.empty')}</p>
        ) : (
          <ul className="ip-grid" data-testid="result-grid">
            {gridItems.slice(0, mounted).map((item) => (
              <ResultCard
                key={item.id}
                item={item}
                thumb={fileById.get(item.fileId)?.thumb}
                actions={actions}
                onOpen={onOpen}
              />
            ))}
          </ul>
        )}
      </section>

      <VariantPreviewDialog
        file={previewing}
        scale={model?.scale ?? 2}
        models={catalog.models}
        suggestedModel={previewSuggestion}
        onApply={applyVariant}
        onClose={() => setPreviewing(null)}
      />
    </div>
  );
}
