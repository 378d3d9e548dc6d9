// The variant preview of one pending image, in a modal dialog over the page: Esc, the Cancel button
// or the close button leave it (in-flight crop upscales are aborted as it unmounts), Apply sets the
// batch's model.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { SourceFile } from '../model/file-store';
import type { UpscaleModel } from '../model/model-catalog';
import { VariantPreview } from './variant-preview';
import './variant-preview-dialog.css';

interface Props {
  file: SourceFile | null;
  scale: number;
  models: readonly UpscaleModel[];
  suggestedModel?: string;
  onApply(modelName: string): void;
  onClose(): void;
}

export function VariantPreviewDialog({ file, scale, models, suggestedModel, onApply, onClose }: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (file && !dialog.open) dialog.showModal();
    if (!file && dialog.open) dialog.close();
  }, [file]);

  return (
    <dialog
      ref={ref}
      className="variant-dialog"
      aria-label={t('imageProcessing.variants.title')}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      data-testid="variant-dialog"
    >
      {file && (
        <div className="variant-dialog__body">
          <header className="variant-dialog__head">
            <strong title={file.name}>{file.name}</strong>
            <button
              type="button"
              className="ip-button ip-button--ghost variant-dialog__close"
              onClick={onClose}
              aria-label={t('imageProcessing.variants.cancel')}
            >
              ×
            </button>
          </header>
          <VariantPreview
            key={`${file.id}-${scale}`}
            source={file.blob}
            sourceName={file.name}
            scale={scale}
            models={models}
            suggestedModel={suggestedModel}
            onApply={onApply}
            onCancel={onClose}
          />
        </div>
      )}
    </dialog>
  );
}
