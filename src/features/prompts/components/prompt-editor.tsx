// The create/edit form of one prompt: text area with a live character count against the 1000
// limit, voice dictation, and validation messages (spec §5).
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VoiceInput } from '../../../components/voice-input';
import { PROMPT_MAX_LENGTH, validatePromptContent } from '../model/prompt';

interface Props {
  initial: string;
  mode: 'create' | 'edit';
  busy: boolean;
  onSave: (content: string) => void;
  onCancel: () => void;
}

export function PromptEditor({ initial, mode, busy, onSave, onCancel }: Props) {
  const { t } = useTranslation();
  const [content, setContent] = useState(initial);
  const [touched, setTouched] = useState(false);
  const id = useId();
  const problem = validatePromptContent(content);
  const showProblem = touched && problem;
  const near = content.length >= PROMPT_MAX_LENGTH * 0.9;
  return (
    <form
      className="prompt-editor"
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (!problem) onSave(content);
      }}
    >
      <label className="prompt-editor__label" htmlFor={id}>
        {t('prompts.contentLabel')}
      </label>
      <textarea
        id={id}
        className="prompt-editor__text"
        value={content}
        rows={8}
        maxLength={PROMPT_MAX_LENGTH}
        placeholder={t('prompts.placeholder')}
        aria-invalid={!!showProblem}
        aria-describedby={`${id}-count${showProblem ? ` ${id}-error` : ''}`}
        onChange={(event) => setContent(event.target.value)}
        onBlur={() => setTouched(true)}
        disabled={busy}
        autoFocus
      />
      <div className="prompt-editor__meta">
        <VoiceInput value={content} onChange={setContent} disabled={busy} />
        <span
          id={`${id}-count`}
          className={`prompt-editor__count${content.length > PROMPT_MAX_LENGTH ? ' prompt-editor__count--over' : near ? ' prompt-editor__count--near' : ''}`}
          aria-live="polite"
          data-testid="prompt-count"
        >
          {t('prompts.count', { count: content.length, max: PROMPT_MAX_LENGTH })}
        </span>
      </div>
      {showProblem ? (
        <p id={`${id}-error`} className="prompt-editor__error" role="alert">
          {t(problem, { max: PROMPT_MAX_LENGTH })}
        </p>
      ) : null}
      <div className="prompt-editor__actions">
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy}>
          {t('prompts.cancel')}
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {mode === 'create' ? t('prompts.create') : t('prompts.save')}
        </button>
      </div>
    </form>
  );
}
