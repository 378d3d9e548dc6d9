// Step 2: the image prompt from prompt management (or the page's default when the designer may not
// read prompt management), editable for this run; it must be selected to continue.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PROMPT_MAX_LENGTH } from '../../../../shared/prompts/prompt-rules';
import { useImagePrompts } from '../api/image-prompt';
import type { VideoDraft } from '../model/draft';
import type { DraftUpdate } from '../hooks/use-video-draft';

export function PromptStep({ draft, update }: { draft: VideoDraft; update: DraftUpdate }) {
  const { t } = useTranslation();
  const prompts = useImagePrompts();
  const managed = prompts.data?.find((p) => p.type === 'image')?.content;
  const fallback = t('videoGeneration.prompt.default');
  const source = managed ?? fallback;

  useEffect(() => {
    if (!draft.promptText && !prompts.isPending) update((d) => (d.promptText ? d : { ...d, promptText: source }));
  }, [draft.promptText, prompts.isPending, source, update]);

  return (
    <section className="vg-card" aria-labelledby="vg-prompt-title">
      <h2 id="vg-prompt-title">{t('videoGeneration.prompt.title')}</h2>
      <p className="vg-muted">
        {managed ? t('videoGeneration.prompt.fromManagement') : t('videoGeneration.prompt.fromDefault')}
      </p>
      <label className={`vg-choice${draft.promptSelected ? ' vg-choice--on' : ''}`}>
        <input
          type="checkbox"
          checked={draft.promptSelected}
          onChange={(e) => update((d) => ({ ...d, promptSelected: e.target.checked }))}
          data-testid="prompt-select"
        />
        <span>{t('videoGeneration.prompt.use')}</span>
      </label>
      <label className="vg-field">
        <span>{t('videoGeneration.prompt.editLabel')}</span>
        <textarea
          className="input vg-textarea"
          rows={6}
          maxLength={PROMPT_MAX_LENGTH}
          value={draft.promptText}
          onChange={(e) => update((d) => ({ ...d, promptText: e.target.value }))}
          data-testid="prompt-text"
        />
      </label>
      <div className="vg-row">
        <span className="vg-muted">{t('videoGeneration.prompt.length', { count: draft.promptText.length, max: PROMPT_MAX_LENGTH })}</span>
        <button type="button" className="btn btn--ghost vg-touch" onClick={() => update((d) => ({ ...d, promptText: source }))}>
          {t('videoGeneration.prompt.restore')}
        </button>
      </div>
    </section>
  );
}
