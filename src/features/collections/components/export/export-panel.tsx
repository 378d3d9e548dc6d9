// The collection's exports: the results sheet (CSV in the reader's language, from the server) and
// the lookbook ZIP of the chosen images and videos, built in the ZIP worker with file names from
// the person's template. The template is kept on the device; the export waits while any two rows
// would share a name.
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionView } from '../../../../../shared/collections/collection-types';
import { Spinner } from '../../../../components/spinner';
import { loadRuntimeConfig } from '../../../../lib/api';
import {
  DEFAULT_NAMING_TEMPLATE,
  NAMING_TOKENS,
  planIsClear,
  planNames,
  sanitizeFileName,
} from '../../../../lib/collections/naming-template';
import { getSession } from '../../../../lib/session/session-store';
import { buildLookbookInWorker, isAbortError } from '../../../../lib/workers/zip-bridge';
import { fetchResultsCsv } from '../../api/collection-results-csv';
import { lookbookFiles, type LookbookChoice } from '../../model/collection-lookbook';
import { saveBlob } from '../../../../lib/media/save-blob';
import { NamingPreview } from './naming-preview';
import './export.css';

const TEMPLATE_KEY = 'collectionNamingTemplate';

function storedTemplate(): string {
  try {
    return localStorage.getItem(TEMPLATE_KEY) || DEFAULT_NAMING_TEMPLATE;
  } catch {
    return DEFAULT_NAMING_TEMPLATE;
  }
}

function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

interface ZipState {
  done: number;
  total: number;
}

export function ExportPanel({ view }: { view: CollectionView }) {
  const { t, i18n } = useTranslation();
  const [template, setTemplate] = useState(storedTemplate);
  const [choice, setChoice] = useState<LookbookChoice>({ images: true, videos: true });
  const [csvBusy, setCsvBusy] = useState(false);
  const [zip, setZip] = useState<ZipState | null>(null);
  const [message, setMessage] = useState<{ tone: 'error' | 'done'; text: string } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const templateInput = useRef<HTMLInputElement>(null);
  const baseName = sanitizeFileName(view.name) || 'collection';

  const files = useMemo(() => lookbookFiles(view.items, choice), [view.items, choice]);
  const plan = useMemo(() => planNames(template, files.map((f) => f.file), { date: today(), total: view.items.length }), [template, files, view.items.length]);
  const clear = planIsClear(plan);

  const changeTemplate = (value: string) => {
    setTemplate(value);
    try {
      localStorage.setItem(TEMPLATE_KEY, value);
    } catch {
      // Private mode: the template lasts for this visit.
    }
  };

  const insertToken = (token: string) => {
    const input = templateInput.current;
    const at = input?.selectionStart ?? template.length;
    const end = input?.selectionEnd ?? at;
    changeTemplate(`${template.slice(0, at)}{${token}}${template.slice(end)}`);
    requestAnimationFrame(() => {
      input?.focus();
      const caret = at + token.length + 2;
      input?.setSelectionRange(caret, caret);
    });
  };

  const downloadCsv = async () => {
    setCsvBusy(true);
    setMessage(null);
    try {
      const { blob, fileName } = await fetchResultsCsv(view.id, i18n.language);
      saveBlob(blob, fileName || `${baseName}-results.csv`);
    } catch (error) {
      setMessage({ tone: 'error', text: error instanceof Error && error.message ? error.message : t('collections.export.csvFailed') });
    } finally {
      setCsvBusy(false);
    }
  };

  const buildZip = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setMessage(null);
    setZip({ done: 0, total: files.length });
    try {
      const runtime = await loadRuntimeConfig();
      const apiOrigin = new URL(runtime.api.main, location.href).origin;
      const entries = files.map((f, index) => ({ name: plan.names[index] ?? '', url: new URL(f.url, location.href).href }));
      const blob = await buildLookbookInWorker(entries, { token: getSession().token, apiOrigin }, {
        signal: controller.signal,
        onProgress: (p) => {
          if (abort.current === controller) setZip({ done: p.entriesDone, total: p.entriesTotal });
        },
      });
      saveBlob(blob, `${baseName}-lookbook-${today()}.zip`);
      setMessage({ tone: 'done', text: t('collections.export.zipDone', { count: entries.length }) });
    } catch (error) {
      if (!isAbortError(error) && !controller.signal.aborted) setMessage({ tone: 'error', text: t('collections.export.zipFailed') });
    } finally {
      if (abort.current === controller) abort.current = null;
      setZip(null);
    }
  };

  return (
    <section className="cx card" aria-labelledby="collection-export-title" data-testid="collection-export">
      <h2 id="collection-export-title">{t('collections.export.title')}</h2>
      <div className="cx-block">
        <p className="cx-note">{t('collections.export.csvHint')}</p>
        <button type="button" className="btn btn--ghost" onClick={() => void downloadCsv()} disabled={csvBusy} aria-busy={csvBusy} data-testid="export-csv">
          {csvBusy ? <Spinner size={16} /> : null}
          {t('collections.export.csv')}
        </button>
      </div>
      <div className="cx-block">
        <h3 className="cx-subtitle">{t('collections.export.zipTitle')}</h3>
        <fieldset className="cx-choice">
          <legend>{t('collections.export.include')}</legend>
          <label>
            <input type="checkbox" checked={choice.images} onChange={(e) => setChoice({ ...choice, images: e.target.checked })} data-testid="export-images" />
            {t('collections.export.images')}
          </label>
          <label>
            <input type="checkbox" checked={choice.videos} onChange={(e) => setChoice({ ...choice, videos: e.target.checked })} data-testid="export-videos" />
            {t('collections.export.videos')}
          </label>
        </fieldset>
        <label className="cx-template" htmlFor="collection-naming-template">
          {t('collections.export.template')}
        </label>
        <input
          id="collection-naming-template"
          ref={templateInput}
          className="cx-input"
          value={template}
          onChange={(e) => changeTemplate(e.target.value)}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          aria-describedby="collection-naming-help"
          data-testid="naming-template"
        />
        <div className="cx-tokens" id="collection-naming-help">
          <span>{t('collections.export.tokensHint')}</span>
          {NAMING_TOKENS.map((token) => (
            <button
              key={token}
              type="button"
              className="cx-token"
              onClick={() => insertToken(token)}
              aria-label={t('collections.export.insertToken', { token: `{${token}}`, meaning: t(`collections.export.token.${token}`) })}
            >
              {`{${token}}`}
            </button>
          ))}
        </div>
        <NamingPreview plan={plan} total={files.length} />
        {zip ? (
          <div className="cx-progress" role="status" data-testid="zip-progress">
            <Spinner size={16} />
            <span>{t('collections.export.zipBuilding', { done: zip.done, total: zip.total })}</span>
            <button type="button" className="btn btn--ghost" onClick={() => abort.current?.abort()}>
              {t('collections.export.zipCancel')}
            </button>
          </div>
        ) : (
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => void buildZip()}
            disabled={!clear || files.length === 0}
            data-testid="export-zip"
          >
            {t('collections.export.zip', { count: files.length })}
          </button>
        )}
        {!clear ? <p className="cx-note">{t('collections.export.blocked')}</p> : null}
      </div>
      <div aria-live="polite">
        {message ? (
          <p className={message.tone === 'error' ? 'cg-error' : 'cx-done'} role={message.tone === 'error' ? 'alert' : undefined} data-testid="export-message">
            {message.text}
          </p>
        ) : null}
      </div>
    </section>
  );
}
