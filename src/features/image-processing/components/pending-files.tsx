// Images added but not started yet: one row each with its thumbnail, the denoise level its noise
// estimate suggests (with the one-line reason and a one-tap "use it"), a way into the variant
// preview, and removal one by one or all at once.
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useObjectUrl } from '../hooks/use-object-url';
import type { SourceFile } from '../model/file-store';
import { formatBytes } from '../model/format';
import type { UpscaleModel } from '../model/model-catalog';
import { suggestFromNoise } from '../model/noise-suggestion';

interface Props {
  files: readonly SourceFile[];
  /** The offered models and the selected one: suggestions are made at its scale. */
  models: readonly UpscaleModel[];
  selected: UpscaleModel | undefined;
  onRemove(ids: string[]): void;
  onUseModel(modelName: string): void;
  onPreview(file: SourceFile): void;
}

export function PendingFiles({ files, models, selected, onRemove, onUseModel, onPreview }: Props) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <div className="ip-pending" data-testid="pending-files">
      <div className="ip-pending__head">
        <span>{t('imageProcessing.upload.selected', { count: files.length })}</span>
        <button
          type="button"
          className="ip-button ip-button--ghost"
          onClick={() => onRemove(files.map((f) => f.id))}
        >
          {t('imageProcessing.upload.clear')}
        </button>
      </div>
      <ul className="ip-pending__list">
        {files.map((f) => (
          <PendingRow
            key={f.id}
            file={f}
            models={models}
            selected={selected}
            onRemove={onRemove}
            onUseModel={onUseModel}
            onPreview={onPreview}
          />
        ))}
      </ul>
    </div>
  );
}

interface RowProps extends Omit<Props, 'files'> {
  file: SourceFile;
}

const PendingRow = memo(function PendingRow({
  file,
  models,
  selected,
  onRemove,
  onUseModel,
  onPreview,
}: RowProps) {
  const { t } = useTranslation();
  const url = useObjectUrl(file.thumb);
  const suggestion =
    file.noise && selected ? suggestFromNoise(file.noise, selected.scale, models) : undefined;
  const suggestedModel = suggestion && models.find((m) => m.name === suggestion.modelName);
  const inUse = suggestion?.modelName === selected?.name;

  return (
    <li className="ip-pending__item" data-testid="pending-file" data-suggested={suggestion?.modelName}>
      <div className="ip-pending__thumb">
        {url ? (
          <img src={url} alt="" draggable={false} decoding="async" />
        ) : (
          <span className="ip-card__placeholder">{file.name.slice(0, 1)}</span>
        )}
      </div>
      <div className="ip-pending__info">
        <span className="ip-pending__name" title={file.name}>
          {file.name}
        </span>
        <span className="ip-pending__meta">
          {formatBytes(file.size)}
          {file.width && file.height ? ` · ${file.width}×${file.height}` : ''}
        </span>
        {suggestion && suggestedModel ? (
          <>
            <span className="ip-pending__suggestion" data-testid="noise-suggestion">
              {t('imageProcessing.noise.suggestion', { model: suggestedModel.displayName })}
            </span>
            <span className="ip-pending__reason" data-testid="noise-reason">
              {t(suggestion.reasonKey, suggestion.reasonValues)}
            </span>
          </>
        ) : (
          !file.thumb && <span className="ip-pending__reason">{t('imageProcessing.noise.analysing')}</span>
        )}
      </div>
      <div className="ip-pending__actions">
        {suggestion &&
          (inUse ? (
            <span className="ip-pending__in-use" data-testid="noise-in-use">
              ✓ {t('imageProcessing.noise.inUse')}
            </span>
          ) : (
            <button
              type="button"
              className="ip-button ip-button--small"
              onClick={() => onUseModel(suggestion.modelName)}
              data-testid="use-suggested"
            >
              {t('imageProcessing.noise.use')}
            </button>
          ))}
        <button
          type="button"
          className="ip-button ip-button--small"
          onClick={() => onPreview(file)}
          disabled={!selected}
          aria-label={t('imageProcessing.variants.openNamed', { name: file.name })}
          data-testid="preview-variants"
        >
          {t('imageProcessing.variants.open')}
        </button>
      </div>
      <button
        type="button"
        className="ip-pending__remove"
        onClick={() => onRemove([file.id])}
        aria-label={t('imageProcessing.actions.removeNamed', { name: file.name })}
      >
        ×
      </button>
    </li>
  );
});
