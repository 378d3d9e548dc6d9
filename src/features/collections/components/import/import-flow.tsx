// "New collection": the sheet and its images in, the column mapping, the preview with its problems,
// the settings, and Start. Everything before Start happens on the device and works offline. Start
// keeps the collection in IndexedDB at once (rows, mapping, settings, image Blobs) and hands it to
// the uploads; from then on a reload or a lost connection resumes it instead of losing it.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MAX_COLLECTION_IMAGES,
  MAX_COLLECTION_ITEMS,
  type CollectionSettings,
} from '../../../../../shared/collections/collection-types';
import { currentLanguage, i18n } from '../../../../i18n/i18n';
import { savePendingCollection, type PendingCollectionRecord } from '../../../../lib/db/collection-draft-store';
import { useOnlineStatus } from '../../../../lib/offline/online-status';
import { usePrompts } from '../../api/image-prompts';
import { resumePending } from '../../hooks/pending-runner';
import { useSheetImport } from '../../hooks/use-sheet-import';
import { newClientCollectionId } from '../../model/client-collection-id';
import { readyRows } from '../../model/collection-draft';
import { defaultSettings, normalizeSettings, settingsProblems } from '../../model/collection-settings';
import { planPendingCollection } from '../../model/pending-collection';
import { FilePicker } from './file-picker';
import { MappingEditor } from './mapping-editor';
import { PreviewTable } from './preview-table';
import { SettingsForm } from './settings-form';

interface Props {
  userKey: string | null;
  onClose(): void;
  onStarted(clientId: string): void;
}

const stem = (name: string) => name.replace(/\.[^.]*$/, '');

export function ImportFlow({ userKey, onClose, onStarted }: Props) {
  const { t } = useTranslation();
  const { online } = useOnlineStatus();
  const sheetImport = useSheetImport(userKey);
  const { state, vocabulary } = sheetImport;
  const prompts = usePrompts();
  const savedPrompt = prompts.data?.find((p) => p.type === 'image')?.content;
  const [name, setName] = useState('');
  const [settings, setSettings] = useState<CollectionSettings>(() => defaultSettings());
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);

  // After a reload: the name and the settings as they were.
  const { checked, restored, keep } = sheetImport;
  useEffect(() => {
    if (!restored) return;
    if (restored.name) setName(restored.name);
    if (restored.settings) setSettings(normalizeSettings(restored.settings));
  }, [restored]);
  useEffect(() => {
    // Not before the kept ones are read back: the defaults would overwrite them.
    if (!checked) return;
    const timer = window.setTimeout(() => keep({ name, settings }), 250);
    return () => window.clearTimeout(timer);
  }, [checked, keep, name, settings]);

  // The prompt starts as prompt management's image prompt, or the workflow's own default.
  useEffect(() => {
    if (prompts.isPending || settings.image_prompt) return;
    setSettings((s) => (s.image_prompt ? s : { ...s, image_prompt: savedPrompt ?? t('videoGeneration.prompt.default') }));
  }, [prompts.isPending, savedPrompt, settings.image_prompt, t]);

  // The name starts as the sheet's file name.
  useEffect(() => {
    if (sheetImport.sheet && !name && !restored?.name) setName(stem(sheetImport.sheet.name));
  }, [name, restored, sheetImport.sheet]);

  const ready = state.status === 'ready' ? state : null;
  const readyCount = useMemo(() => (ready ? readyRows(ready.draft).length : 0), [ready]);
  const problems = settingsProblems(name, settings);
  const plan = useMemo(
    () => (ready ? planPendingCollection(vocabulary, ready.draft, (field, key) => key) : null),
    [ready, vocabulary],
  );

  const blockers: string[] = [];
  if (ready) {
    if (ready.mappingProblems.length > 0) blockers.push(t('collections.import.blockMapping'));
    // Every row is decided before Start: fixed, or left out on purpose, never dropped unseen.
    const blocked = ready.draft.collection.rows.filter((r) => !r.excluded).length - readyCount;
    if (blocked > 0) blockers.push(t('collections.import.blockRowsBlocked', { count: blocked }));
    else if (readyCount === 0) blockers.push(t('collections.import.blockNoRows'));
    if (readyCount > MAX_COLLECTION_ITEMS)
      blockers.push(t('collections.import.blockTooManyRows', { count: readyCount, max: MAX_COLLECTION_ITEMS }));
    if (plan && plan.images.length > MAX_COLLECTION_IMAGES)
      blockers.push(t('collections.import.blockTooManyImages', { count: plan.images.length, max: MAX_COLLECTION_IMAGES }));
    if (problems.length > 0) blockers.push(t('collections.import.blockSettings'));
  }

  async function start() {
    if (!ready || !userKey || blockers.length > 0) return;
    setStarting(true);
    setStartError(null);
    try {
      const language = currentLanguage();
      // Presets go in the collection's language: its analysis and prompts are written in it.
      const fixed = i18n.getFixedT(language);
      const final = planPendingCollection(vocabulary, ready.draft, (field, key) =>
        fixed(`videoGeneration.presets.${field}.${key}`),
      );
      const { collection } = ready.draft;
      const record: PendingCollectionRecord = {
        id: newClientCollectionId(),
        userKey,
        createdAt: Date.now(),
        name: name.trim(),
        language,
        settings: { ...settings, image_prompt: settings.image_prompt.trim() },
        items: final.items,
        images: final.images.map((index) => {
          const image = collection.images[index]!;
          return {
            name: image.path,
            type: image.type ?? ready.imageFiles[index]?.type ?? '',
            size: image.size,
            uploadUrl: null,
            uploadId: null,
          };
        }),
        sheet: {
          headers: collection.headers,
          mapping: collection.mapping,
          rows: collection.rows.map((r) => ({ sheetRow: r.sheetRow, cells: r.cells, excluded: r.excluded })),
        },
        refused: null,
      };
      await savePendingCollection(
        record,
        final.images.map((index) => ready.imageFiles[index]!),
      );
      resumePending(userKey);
      sheetImport.clear();
      onStarted(record.id);
    } catch (error) {
      const quota = error instanceof DOMException && error.name === 'QuotaExceededError';
      setStartError(quota ? t('collections.import.saveQuota') : t('collections.import.saveFailed'));
    } finally {
      setStarting(false);
    }
  }

  const sample = ready?.draft.collection.rows[0]?.cells ?? [];
  return (
    <div className="ci-flow" data-testid="collection-import">
      <div className="ci-flow__head">
        <h2 className="ci-flow__title">{t('collections.import.title')}</h2>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => {
            sheetImport.clear();
            onClose();
          }}
          data-testid="collection-import-close"
        >
          {t('collections.import.close')}
        </button>
      </div>
      <FilePicker
        sheet={sheetImport.sheet}
        images={sheetImport.images}
        onSheet={sheetImport.setSheet}
        onImages={sheetImport.setImages}
        onDropped={sheetImport.choose}
      />
      {state.status === 'reading' && (
        <p className="ci-card ci-muted" role="status" data-testid="collection-reading">
          {t('collections.import.reading')}
        </p>
      )}
      {state.status === 'refused' && (
        <div className="ci-card ci-refused" role="alert" data-testid="collection-sheet-error">
          <strong>{t('collections.import.refusedTitle')}</strong>
          <p>{t(state.messageKey, state.values)}</p>
        </div>
      )}
      {state.status === 'failed' && (
        <div className="ci-card ci-refused" role="alert" data-testid="collection-sheet-error">
          <strong>{t('collections.import.failedTitle')}</strong>
          <p>{state.message}</p>
        </div>
      )}
      {ready && (
        <>
          <MappingEditor
            sheetName={sheetImport.sheet?.name ?? ''}
            headers={ready.draft.collection.headers}
            sample={sample}
            mapping={ready.mapping}
            problems={ready.mappingProblems}
            remembered={ready.remembered}
            canReset={ready.mapping.some((f, i) => f !== ready.guessedMapping[i])}
            onChange={sheetImport.setColumn}
            onReset={sheetImport.resetMapping}
          />
          {ready.mappingProblems.length === 0 && (
            <PreviewTable draft={ready.draft} onEdit={sheetImport.setCell} onExclude={sheetImport.setRowExcluded} />
          )}
          <SettingsForm name={name} settings={settings} problems={problems} onName={setName} onChange={setSettings} />
          <section className="ci-card ci-start" aria-labelledby="ci-start-title">
            <h2 id="ci-start-title">{t('collections.import.startTitle')}</h2>
            <p className="ci-muted">
              {t('collections.import.startSummary', { count: readyCount, images: plan?.images.length ?? 0 })}
            </p>
            {!online && (
              <p className="ci-note" role="status" data-testid="collection-start-offline">
                {t('collections.import.startOffline')}
              </p>
            )}
            {blockers.length > 0 && (
              <ul className="ci-errors" data-testid="collection-start-blockers">
                {blockers.map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
            )}
            {startError && (
              <p className="ci-field__error" role="alert">
                {startError}
              </p>
            )}
            <button
              type="button"
              className="btn btn--primary"
              disabled={starting || blockers.length > 0 || !userKey}
              onClick={() => void start()}
              data-testid="collection-start"
            >
              {t('collections.import.start', { count: readyCount })}
            </button>
          </section>
        </>
      )}
    </div>
  );
}
