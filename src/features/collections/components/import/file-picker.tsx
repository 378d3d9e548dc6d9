// Step one of the import: the sheet (CSV or XLSX) and the images (a folder or a ZIP), picked with
// the buttons or dropped on the zone, and the template to start a sheet from, in the person's
// language. Every control is a real button or input, so a keyboard and a finger reach them alike.
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../../i18n/i18n';
import { sheetTemplate, type TemplateFormat } from '../../../../lib/workers/sheet-import-bridge';
import type { ImageSource } from '../../../../workers/sheet-import/protocol';
import { readDrop } from './dropped-files';

interface Props {
  sheet: File | null;
  images: ImageSource;
  onSheet(file: File | null): void;
  onImages(source: ImageSource): void;
  /** A drop may bring the sheet and the images at once. */
  onDropped(files: { sheet?: File; images?: ImageSource }): void;
}

function imagesLabel(t: ReturnType<typeof useTranslation>['t'], images: ImageSource): string {
  if (images.kind === 'zip') return t('collections.import.imagesZip', { name: images.file.name });
  if (images.kind === 'folder') return t('collections.import.imagesFolder', { count: images.files.length });
  return t('collections.import.noImages');
}

function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function FilePicker({ sheet, images, onSheet, onImages, onDropped }: Props) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const [templateBusy, setTemplateBusy] = useState<TemplateFormat | null>(null);
  const sheetInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const zipInput = useRef<HTMLInputElement>(null);

  async function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    const dropped = await readDrop(event.dataTransfer);
    if (dropped.sheet || dropped.images)
      onDropped({ ...(dropped.sheet ? { sheet: dropped.sheet } : {}), ...(dropped.images ? { images: dropped.images } : {}) });
  }

  async function download(format: TemplateFormat) {
    setTemplateBusy(format);
    try {
      const blob = await sheetTemplate(currentLanguage(), format);
      saveBlob(blob, `${t('collections.template.fileName')}.${format}`);
    } finally {
      setTemplateBusy(null);
    }
  }

  return (
    <section className="ci-card" aria-labelledby="ci-files-title">
      <h2 id="ci-files-title">{t('collections.import.filesTitle')}</h2>
      <p className="ci-muted">{t('collections.import.filesHelp')}</p>
      <div
        className={`ci-drop${over ? ' ci-drop--over' : ''}`}
        data-testid="collection-drop"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => void onDrop(event)}
      >
        <p className="ci-drop__hint">{t('collections.import.dropHint')}</p>
        <div className="ci-drop__row">
          <div className="ci-pick">
            <span className="ci-pick__label">{t('collections.import.sheetLabel')}</span>
            <span className="ci-pick__value" data-testid="collection-sheet-name">
              {sheet ? sheet.name : t('collections.import.noSheet')}
            </span>
            <button type="button" className="btn btn--ghost" onClick={() => sheetInput.current?.click()}>
              {t('collections.import.chooseSheet')}
            </button>
            <input
              ref={sheetInput}
              type="file"
              hidden
              accept=".csv,.xlsx,.xls,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              data-testid="collection-sheet-input"
              onChange={(event) => {
                const file = event.target.files?.[0] ?? null;
                event.target.value = '';
                if (file) onSheet(file);
              }}
            />
          </div>
          <div className="ci-pick">
            <span className="ci-pick__label">{t('collections.import.imagesLabel')}</span>
            <span className="ci-pick__value" data-testid="collection-images-name">
              {imagesLabel(t, images)}
            </span>
            <div className="ci-pick__buttons">
              <button type="button" className="btn btn--ghost" onClick={() => folderInput.current?.click()}>
                {t('collections.import.chooseFolder')}
              </button>
              <button type="button" className="btn btn--ghost" onClick={() => zipInput.current?.click()}>
                {t('collections.import.chooseZip')}
              </button>
            </div>
            <input
              ref={folderInput}
              type="file"
              hidden
              multiple
              data-testid="collection-folder-input"
              // Not in React's typings: the attribute that makes the picker choose a folder.
              {...{ webkitdirectory: '' }}
              onChange={(event) => {
                const files = [...(event.target.files ?? [])];
                event.target.value = '';
                if (files.length > 0) onImages({ kind: 'folder', files });
              }}
            />
            <input
              ref={zipInput}
              type="file"
              hidden
              accept=".zip,application/zip"
              data-testid="collection-zip-input"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) onImages({ kind: 'zip', file });
              }}
            />
          </div>
        </div>
      </div>
      <div className="ci-template">
        <span className="ci-muted">{t('collections.import.templateHelp')}</span>
        <button
          type="button"
          className="btn btn--ghost"
          disabled={templateBusy !== null}
          onClick={() => void download('xlsx')}
          data-testid="collection-template-xlsx"
        >
          {t('collections.import.templateXlsx')}
        </button>
        <button
          type="button"
          className="btn btn--ghost"
          disabled={templateBusy !== null}
          onClick={() => void download('csv')}
          data-testid="collection-template-csv"
        >
          {t('collections.import.templateCsv')}
        </button>
      </div>
    </section>
  );
}
