// Images added but not started yet, as thumbnails that can be removed one by one or all at once.
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useObjectUrl } from '../hooks/use-object-url';
import type { StoredFile } from '../model/file-store';
import { formatBytes } from '../model/format';

interface Props {
  files: readonly StoredFile[];
  onRemove(ids: string[]): void;
}

export function PendingFiles({ files, onRemove }: Props) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <div className="ip-pending" data-testid="pending-files">
      <div className="ip-pending__head">
        <span>{t('imageProcessing.upload.selected', { count: files.length })}</span>
        <button type="button" className="ip-button ip-button--ghost" onClick={() => onRemove(files.map((f) => f.id))}>
          {t('imageProcessing.upload.clear')}
        </button>
      </div>
      <ul className="ip-pending__list">
        {files.map((f) => (
          <PendingThumb key={f.id} file={f} onRemove={() => onRemove([f.id])} />
        ))}
      </ul>
    </div>
  );
}

const PendingThumb = memo(function PendingThumb({ file, onRemove }: { file: StoredFile; onRemove(): void }) {
  const { t } = useTranslation();
  const url = useObjectUrl(file.thumb);
  return (
    <li className="ip-pending__item" data-testid="pending-file" title={`${file.name} · ${formatBytes(file.size)}`}>
      {url ? <img src={url} alt={file.name} draggable={false} decoding="async" /> : <span className="ip-card__placeholder">{file.name.slice(0, 1)}</span>}
      <button type="button" className="ip-pending__remove" onClick={onRemove} aria-label={t('imageProcessing.actions.removeNamed', { name: file.name })}>
        ×
      </button>
    </li>
  );
});
