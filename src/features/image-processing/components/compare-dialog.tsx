// A finished image before and after, full screen, on the shared compare slider.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CompareSlider } from '../../../components/compare-slider/compare-slider';
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { useItemImages } from '../hooks/use-item-images';
import './compare-dialog.css';

interface Props {
  item: QueueItem | null;
  onClose(): void;
}

export function CompareDialog({ item, onClose }: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const images = useItemImages(item);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (item && !dialog.open) dialog.showModal();
    if (!item && dialog.open) dialog.close();
  }, [item]);

  return (
    <dialog
      ref={ref}
      className="compare-dialog"
      aria-label={t('imageProcessing.compare.title')}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      data-testid="compare-dialog"
    >
      {item && (
        <div className="compare-dialog__body">
          <header className="compare-dialog__head">
            <strong>{item.fileName}</strong>
            <span>{`${item.params.modelName} · ${item.params.scale}x`}</span>
            <button type="button" className="ip-button" onClick={onClose}>
              {t('imageProcessing.compare.close')}
            </button>
          </header>
          <div className="compare-dialog__stage">
            {images.before && images.after ? (
              <CompareSlider
                beforeSrc={images.before}
                afterSrc={images.after}
                beforeLabel={t('imageProcessing.compare.before')}
                afterLabel={t('imageProcessing.compare.after')}
              />
            ) : (
              <p className="compare-dialog__note">
                {images.failed ? t('imageProcessing.errors.downloadFailed') : t('imageProcessing.compare.loading')}
              </p>
            )}
          </div>
        </div>
      )}
    </dialog>
  );
}
