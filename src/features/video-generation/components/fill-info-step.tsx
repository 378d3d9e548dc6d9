// Step 1: the fabric form of spec §3 (presets with "other" → own words), the guidance fields with
// voice input, the optional quick description, and the model and pattern uploads with the
// 6 / 6 / 10 limits (drop, pick, paste, camera).
import { useEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { VoiceInput } from '../../../components/voice-input';
import { IMAGE_ACCEPT } from '../../../../shared/images/image-types';
import { PROMPT_MAX_LENGTH } from '../../../../shared/prompts/prompt-rules';
import type { DraftFile, VideoDraft } from '../model/draft';
import { newRequestId } from '../model/draft';
import {
  CHOICE_FIELDS,
  CHOICE_FIELD_NAMES,
  LONG_MAX,
  LONG_TEXT_FIELDS,
  OTHER,
  SHORT_MAX,
  SHORT_TEXT_FIELDS,
  type ChoiceField,
  type LongTextField,
  type ShortTextField,
} from '../../../../shared/fabric/fabric-fields';
import { MAX_IMAGES_TOTAL, planAdd, refuseFile, roleLimit, type ImageRole } from '../model/image-limits';
import type { DraftUpdate } from '../hooks/use-video-draft';

interface Props {
  draft: VideoDraft;
  update: DraftUpdate;
}

export function FillInfoStep({ draft, update }: Props) {
  const { t } = useTranslation();
  const setText = (field: ShortTextField | LongTextField, value: string) =>
    update((d) => ({ ...d, form: { ...d.form, text: { ...d.form.text, [field]: value } } }));
  const setChoice = (field: ChoiceField, patch: Partial<{ choice: string; custom: string }>) =>
    update((d) => ({
      ...d,
      form: { ...d.form, choices: { ...d.form.choices, [field]: { ...d.form.choices[field], ...patch } } },
    }));

  return (
    <div className="vg-info">
      <section className="vg-card" aria-labelledby="vg-uploads-title">
        <h2 id="vg-uploads-title">{t('videoGeneration.info.imagesTitle')}</h2>
        <p className="vg-muted">{t('videoGeneration.info.imagesHint', { total: MAX_IMAGES_TOTAL })}</p>
        <div className="vg-uploads">
          <UploadZone role="model" draft={draft} update={update} />
          <UploadZone role="pattern" draft={draft} update={update} />
        </div>
      </section>

      <section className="vg-card" aria-labelledby="vg-fabric-title">
        <h2 id="vg-fabric-title">{t('videoGeneration.info.fabricTitle')}</h2>
        <div className="vg-grid">
          {SHORT_TEXT_FIELDS.map((field) => (
            <label key={field} className="vg-field">
              <span>{t(`videoGeneration.fields.${field}`)}</span>
              <input
                className="input"
                value={draft.form.text[field]}
                maxLength={SHORT_MAX}
                placeholder={t(`videoGeneration.placeholders.${field}`)}
                onChange={(e) => setText(field, e.target.value)}
                data-testid={`field-${field}`}
              />
            </label>
          ))}
          {CHOICE_FIELD_NAMES.map((field) => {
            const value = draft.form.choices[field];
            return (
              <div key={field} className="vg-field">
                <label>
                  <span>{t(`videoGeneration.fields.${field}`)}</span>
                  <select
                    className="input"
                    value={value.choice}
                    onChange={(e) => setChoice(field, { choice: e.target.value })}
                    data-testid={`field-${field}`}
                  >
                    <option value="">{t('videoGeneration.info.notSet')}</option>
                    {CHOICE_FIELDS[field].map((key) => (
                      <option key={key} value={key}>
                        {t(`videoGeneration.presets.${field}.${key}`)}
                      </option>
                    ))}
                    <option value={OTHER}>{t('videoGeneration.presets.other')}</option>
                  </select>
                </label>
                {value.choice === OTHER ? (
                  <input
                    className="input"
                    aria-label={t('videoGeneration.info.customFor', { field: t(`videoGeneration.fields.${field}`) })}
                    placeholder={t('videoGeneration.info.customPlaceholder')}
                    value={value.custom}
                    maxLength={SHORT_MAX}
                    onChange={(e) => setChoice(field, { custom: e.target.value })}
                    data-testid={`field-${field}-custom`}
                  />
                ) : null}
              </div>
            );
          })}
        </div>
      </section>

      <section className="vg-card" aria-labelledby="vg-guidance-title">
        <h2 id="vg-guidance-title">{t('videoGeneration.info.guidanceTitle')}</h2>
        <div className="vg-grid vg-grid--wide">
          {LONG_TEXT_FIELDS.map((field) => (
            <div key={field} className="vg-field">
              <label htmlFor={`vg-${field}`}>{t(`videoGeneration.fields.${field}`)}</label>
              <div className="vg-field__row">
                <textarea
                  id={`vg-${field}`}
                  className="input vg-textarea"
                  rows={2}
                  maxLength={LONG_MAX}
                  value={draft.form.text[field]}
                  onChange={(e) => setText(field, e.target.value)}
                  data-testid={`field-${field}`}
                />
                <VoiceInput value={draft.form.text[field]} onChange={(v) => setText(field, v.slice(0, LONG_MAX))} />
              </div>
            </div>
          ))}
          <div className="vg-field">
            <label htmlFor="vg-description">{t('videoGeneration.fields.description')}</label>
            <div className="vg-field__row">
              <textarea
                id="vg-description"
                className="input vg-textarea"
                rows={3}
                maxLength={PROMPT_MAX_LENGTH}
                placeholder={t('videoGeneration.placeholders.description')}
                value={draft.description}
                onChange={(e) => update((d) => ({ ...d, description: e.target.value }))}
                data-testid="field-description"
              />
              <VoiceInput value={draft.description} onChange={(v) => update((d) => ({ ...d, description: v.slice(0, PROMPT_MAX_LENGTH) }))} />
            </div>
          </div>
        </div>
      </section>
    </div>
  );
}

function UploadZone({ role, draft, update }: { role: ImageRole; draft: VideoDraft; update: DraftUpdate }) {
  const { t } = useTranslation();
  const files = draft.files.filter((f) => f.role === role);
  const [dragging, setDragging] = useState(false);
  const addRef = useRef<(files: File[]) => void>(() => undefined);

  const add = (offered: File[]) => {
    const usable = offered.filter((f) => {
      const refusal = refuseFile(f);
      if (refusal) toast.error(t(`videoGeneration.limits.${refusal}`, { name: f.name }));
      return !refusal;
    });
    if (usable.length === 0) return;
    const counts = {
      model: draft.files.filter((f) => f.role === 'model').length,
      pattern: draft.files.filter((f) => f.role === 'pattern').length,
    };
    const plan = planAdd(role, counts, usable.length);
    const added: DraftFile[] = usable.slice(0, plan.accepted).map((f) => ({ id: newRequestId(), role, name: f.name, blob: f }));
    if (added.length > 0) update((d) => ({ ...d, files: [...d.files, ...added] }));
    if (plan.rejected > 0) {
      toast.error(
        t(plan.limit === 'total' ? 'videoGeneration.limits.total' : `videoGeneration.limits.${role}`, {
          count: plan.roleCount,
          total: plan.totalCount,
          max: plan.limit === 'total' ? MAX_IMAGES_TOTAL : roleLimit(role),
          rejected: plan.rejected,
        }),
      );
    }
  };

  addRef.current = add;
  useEffect(() => {
    if (role !== 'pattern') return;
    // A paste anywhere else on the step (not in a text field, not in a zone) adds pattern images.
    const onDocumentPaste = (e: globalThis.ClipboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest('[data-upload-role], input, textarea, select')) return;
      const pasted = [...(e.clipboardData?.files ?? [])];
      if (pasted.length > 0) addRef.current(pasted);
    };
    document.addEventListener('paste', onDocumentPaste);
    return () => document.removeEventListener('paste', onDocumentPaste);
  }, [role]);

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    add([...e.dataTransfer.files]);
  };
  const onPaste = (e: ClipboardEvent<HTMLDivElement>) => {
    const pasted = [...e.clipboardData.files];
    if (pasted.length > 0) {
      e.preventDefault();
      add(pasted);
    }
  };

  return (
    <div
      className={`vg-upload${dragging ? ' vg-upload--over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      onPaste={onPaste}
      tabIndex={0}
      role="group"
      aria-label={t(`videoGeneration.info.${role}Images`)}
      data-upload-role={role}
      data-testid={`upload-${role}`}
    >
      <div className="vg-upload__head">
        <h3>{t(`videoGeneration.info.${role}Images`)}</h3>
        <span className="vg-count" data-testid={`count-${role}`}>
          {t('videoGeneration.info.count', { count: files.length, max: roleLimit(role) })}
        </span>
      </div>
      <p className="vg-muted">{t('videoGeneration.info.dropHint')}</p>
      <div className="vg-upload__actions">
        <label className="btn btn--ghost vg-touch">
          {t('videoGeneration.info.pick')}
          <input
            type="file"
            accept={IMAGE_ACCEPT}
            multiple
            className="vg-hidden-input"
            onChange={(e) => {
              add([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
            data-testid={`input-${role}`}
          />
        </label>
        <label className="btn btn--ghost vg-touch">
          {t('videoGeneration.info.camera')}
          <input
            type="file"
            accept="image/*"
            capture="environment"
            className="vg-hidden-input"
            onChange={(e) => {
              add([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      {files.length > 0 ? (
        <ul className="vg-thumbs">
          {files.map((f) => (
            <li key={f.id} className="vg-thumb" data-testid={`thumb-${role}`}>
              <BlobImage blob={f.blob} alt={f.name} />
              <button
                type="button"
                className="vg-thumb__remove"
                aria-label={t('videoGeneration.info.remove', { name: f.name })}
                onClick={() => update((d) => ({ ...d, files: d.files.filter((x) => x.id !== f.id) }))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function BlobImage({ blob, alt }: { blob: Blob; alt: string }) {
  const url = useMemo(() => URL.createObjectURL(blob), [blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <img src={url} alt={alt} loading="lazy" />;
}
