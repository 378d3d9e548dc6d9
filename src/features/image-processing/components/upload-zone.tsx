// Where images come in: drop, the file picker (several at once), the tablet camera, or paste
// anywhere on the page. Validation happens after, so every refused file gets its reason.
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageIcon } from '../../../components/icons';
import { usePasteFiles } from '../../../components/use-paste-files';
import { IMAGE_ACCEPT } from '../../../../shared/images/image-types';
import './upload-zone.css';

interface Props {
  onFiles(files: File[]): void;
  disabled?: boolean;
}

export function UploadZone({ onFiles, disabled }: Props) {
  const { t } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  usePasteFiles(onFiles, { enabled: !disabled });

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = [...e.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  };
  const take = (input: HTMLInputElement | null) => {
    const files = [...(input?.files ?? [])];
    if (input) input.value = '';
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      className={`upload-zone${over ? ' upload-zone--over' : ''}`}
      data-testid="upload-zone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <ImageIcon size={28} />
      <p className="upload-zone__title">{t('imageProcessing.upload.dropTitle')}</p>
      <p className="upload-zone__hint">{t('imageProcessing.upload.dropHint')}</p>
      <div className="upload-zone__actions">
        <button type="button" className="ip-button ip-button--primary" disabled={disabled} onClick={() => picker.current?.click()}>
          {t('imageProcessing.upload.choose')}
        </button>
        <button type="button" className="ip-button" disabled={disabled} onClick={() => camera.current?.click()}>
          {t('imageProcessing.upload.camera')}
        </button>
      </div>
      <input
        ref={picker}
        type="file"
        accept={IMAGE_ACCEPT}
        multiple
        hidden
        data-testid="upload-input"
        onChange={(e) => take(e.currentTarget)}
      />
      <input ref={camera} type="file" accept="image/*" capture="environment" hidden onChange={(e) => take(e.currentTarget)} />
    </div>
  );
}
