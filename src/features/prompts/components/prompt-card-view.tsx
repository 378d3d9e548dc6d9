// One card per prompt type: the prompt (or an empty state), who changed it and when, sync state,
// refused changes with the server's message, and the edit/create/delete actions.
import { useTranslation } from 'react-i18next';
import { Banner } from '../../../components/banner';
import { dateFormat } from '../../../i18n/formats';
import type { PromptCard } from '../model/prompt-cards';
import type { PromptChange } from '../model/prompt';
import { PromptEditor } from './prompt-editor';

interface Props {
  card: PromptCard;
  editing: { initial: string } | null;
  busy: boolean;
  language: string;
  onEdit: (initial: string) => void;
  onCancelEdit: () => void;
  onSave: (content: string) => void;
  onDelete: () => void;
  onRetry: (seq: number, change: PromptChange) => void;
  onDiscard: (seq: number) => void;
}

export function PromptCardView({ card, editing, busy, language, onEdit, onCancelEdit, onSave, onDelete, onRetry, onDiscard }: Props) {
  const { t } = useTranslation();
  const dates = dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const saved = card.saved;
  return (
    <section className="card prompt-card" aria-labelledby={`prompt-${card.type}-title`} data-testid={`prompt-card-${card.type}`}>
      <header className="prompt-card__header">
        <div>
          <h2 id={`prompt-${card.type}-title`}>{t(`prompts.types.${card.type}`)}</h2>
          <p className="prompt-card__hint">{t(`prompts.typeHints.${card.type}`)}</p>
        </div>
        {card.pending.length > 0 ? (
          <span className="prompt-card__badge" data-testid={`prompt-pending-${card.type}`}>
            {t('prompts.pendingSync')}
          </span>
        ) : null}
      </header>

      {card.refused.map((r) => (
        <div key={r.seq} className="prompt-card__refused" data-testid={`prompt-refused-${card.type}`}>
          <Banner tone="error">{t('prompts.refused', { action: t(`prompts.actions.${r.change.action}`), message: r.message })}</Banner>
          {r.change.content ? <p className="prompt-card__kept">{r.change.content}</p> : null}
          <div className="prompt-card__actions">
            {r.change.content !== undefined ? (
              <button type="button" className="btn btn--ghost" onClick={() => onRetry(r.seq, r.change)}>
                {t('prompts.editAgain')}
              </button>
            ) : null}
            <button type="button" className="btn btn--ghost" onClick={() => onDiscard(r.seq)}>
              {t('prompts.discard')}
            </button>
          </div>
        </div>
      ))}

      {editing ? (
        <PromptEditor initial={editing.initial} mode={card.exists ? 'edit' : 'create'} busy={busy} onSave={onSave} onCancel={onCancelEdit} />
      ) : card.exists ? (
        <>
          <p className="prompt-card__content" data-testid={`prompt-content-${card.type}`}>
            {card.content}
          </p>
          {saved ? (
            <p className="prompt-card__meta">
              {t('prompts.lastModified', { name: saved.updated_by, time: dates.format(new Date(saved.updated_at)) })}
              <br />
              {t('prompts.created', { name: saved.created_by, time: dates.format(new Date(saved.created_at)) })}
            </p>
          ) : null}
          <div className="prompt-card__actions">
            <button type="button" className="btn btn--primary" onClick={() => onEdit(card.content ?? '')} disabled={busy}>
              {t('prompts.edit')}
            </button>
            <button type="button" className="btn btn--danger-outline" onClick={onDelete} disabled={busy}>
              {t('prompts.delete')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="prompt-card__empty">{t('prompts.empty')}</p>
          <div className="prompt-card__actions">
            <button type="button" className="btn btn--primary" onClick={() => onEdit('')} disabled={busy}>
              {t('prompts.create')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
