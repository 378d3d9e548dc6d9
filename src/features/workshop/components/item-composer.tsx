// Where an item is made: its type, the text (typed, dictated or pasted), images (dropped, picked,
// pasted) with every refused file named with its reason, then "Add to queue".
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageIcon } from '../../../components/icons';
import { SegmentedControl } from '../../../components/segmented-control';
import { VoiceInput } from '../../../components/voice-input';
import { usePasteFiles } from '../../../components/use-paste-files';
import { isQuotaError } from '../../../lib/db/quota';
import { IMAGE_ACCEPT } from '../../../../shared/images/image-types';
import { MAX_FILE_MB, MAX_IMAGES, MAX_TEXT, sortFiles, type Rejected } from '../model/file-rules';
import { WORKSHOP_TYPES, type WorkshopType } from '../model/workshop-item';

interface Props {
  disabled?: boolean;
  onAdd(item: { type: WorkshopType; text: string; files: File[] }): Promise<void>;
}

export function ItemComposer({ disabled, onAdd }: Props) {
  const { t } = useTranslation();
  const [type, setType] = useState<WorkshopType>('text');
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [rejected, setRejected] = useState<Rejected[]>([]);
  const [over, setOver] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const wantsText = type !== 'image';
  const wantsImages = type !== 'text';

  const addFiles = useCallback(
    (incoming: File[]) => {
      setProblem(null);
      setFiles((current) => {
        const { accepted, rejected: refused } = sortFiles(current.length, incoming);
        setRejected(refused);
        return [...current, ...accepted];
      });
      // An image dropped on a text item turns it into a mixed one.
      setType((current) => (current === 'text' ? 'mixed' : current));
    },
    [],
  );
  usePasteFiles(addFiles, { enabled: !disabled, fromTextFields: true });

  const previews = useMemo(() => files.map((f) => URL.createObjectURL(f)), [files]);
  useEffect(() => () => previews.forEach((u) => URL.revokeObjectURL(u)), [previews]);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled && e.dataTransfer.files.length > 0) addFiles([...e.dataTransfer.files]);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (wantsText && !text.trim()) return setProblem(t('workshop.compose.textRequired'));
    if (wantsImages && files.length === 0) return setProblem(t('workshop.compose.imageRequired'));
    setProblem(null);
    // Emptied at once, not after the save: what the person types while the item is being kept
    // on the device is the next item, and a second press cannot add this one twice. `text` and
    // `files` stay this press's values.
    setText('');
    setFiles([]);
    setRejected([]);
    try {
      await onAdd({ type, text: wantsText ? text.trim() : '', files: wantsImages ? files : [] });
    } catch (error) {
      // Not added: it goes back into the composer, unless the person has started the next one.
      setText((current) => current || text);
      setFiles((current) => (current.length > 0 ? current : files));
      setProblem(t(isQuotaError(error) ? 'workshop.errors.storageFull' : 'workshop.errors.notKept'));
    }
  }

  return (
    <form className="ws-card ws-composer" onSubmit={(e) => void submit(e)} data-testid="workshop-composer" aria-labelledby="ws-compose-title">
      <h2 id="ws-compose-title" className="ws-card__title">
        {t('workshop.compose.title')}
      </h2>
      <SegmentedControl
        label={t('workshop.compose.typeLabel')}
        options={WORKSHOP_TYPES.map((v) => ({ value: v, label: t(`workshop.types.${v}`) }))}
        value={type}
        onChange={(v) => {
          setType(v);
          setProblem(null);
        }}
        disabled={disabled}
        testId="workshop-type"
      />
      <p className="ws-help">{t(`workshop.compose.typeHelp.${type}`)}</p>
      {wantsText && (
        <div className="ws-field">
          <label htmlFor="ws-text" className="ws-field__label">
            {t('workshop.compose.textLabel')}
          </label>
          <div className="ws-text-row">
            <textarea
              id="ws-text"
              className="ws-textarea"
              value={text}
              maxLength={MAX_TEXT}
              rows={5}
              placeholder={t('workshop.compose.textPlaceholder')}
              onChange={(e) => {
                setText(e.target.value);
                setProblem(null);
              }}
              disabled={disabled}
              data-testid="workshop-text"
            />
            <VoiceInput value={text} onChange={(v) => setText(v.slice(0, MAX_TEXT))} disabled={disabled} />
          </div>
          <p className="ws-field__count">{t('workshop.compose.textCount', { count: text.length, max: MAX_TEXT })}</p>
        </div>
      )}
      {wantsImages && (
        <div
          className={`ws-drop${over ? ' ws-drop--over' : ''}`}
          data-testid="workshop-drop"
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <ImageIcon size={24} />
          <p className="ws-drop__title">{t('workshop.compose.dropTitle')}</p>
          <p className="ws-help">{t('workshop.compose.dropHint', { max: MAX_IMAGES })}</p>
          <button type="button" className="ws-button" disabled={disabled || files.length >= MAX_IMAGES} onClick={() => picker.current?.click()}>
            {t('workshop.compose.pick')}
          </button>
          <input
            ref={picker}
            type="file"
            accept={IMAGE_ACCEPT}
            multiple
            hidden
            data-testid="workshop-file-input"
            onChange={(e) => {
              const picked = [...(e.currentTarget.files ?? [])];
              e.currentTarget.value = '';
              if (picked.length > 0) addFiles(picked);
            }}
          />
          {files.length > 0 && (
            <ul className="ws-thumbs" aria-label={t('workshop.compose.chosenImages')}>
              {files.map((file, i) => (
                <li key={`${file.name}-${i}`} className="ws-thumb" data-testid="workshop-chosen-image">
                  <img src={previews[i]} alt={file.name} />
                  <button
                    type="button"
                    className="ws-thumb__remove"
                    aria-label={t('workshop.compose.removeImage', { name: file.name })}
                    onClick={() => setFiles((list) => list.filter((_, n) => n !== i))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {rejected.length > 0 && (
        <ul className="ws-rejected" role="alert" data-testid="workshop-rejected">
          {rejected.map((r, i) => (
            <li key={`${r.name}-${i}`}>{t(`workshop.compose.rejected.${r.reason}`, { name: r.name, max: MAX_IMAGES, mb: MAX_FILE_MB })}</li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="ws-error" role="alert">
          {problem}
        </p>
      )}
      <div className="ws-actions">
        <button type="submit" className="ws-button ws-button--primary" disabled={disabled} data-testid="workshop-add">
          {t('workshop.compose.add')}
        </button>
      </div>
    </form>
  );
}
