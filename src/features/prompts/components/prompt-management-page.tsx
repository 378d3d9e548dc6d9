// /prompt-management (spec §2, §4, §5): one card per type. Changes are queued in the outbox and
// sent at once when online; offline they wait and the page shows the cached prompts with the
// time they were saved.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SavedAtNote } from '../../../components/offline/saved-at-note';
import { Spinner } from '../../../components/spinner';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { currentUserKey } from '../../../lib/offline/user-key';
import { useSession } from '../../../lib/session/use-session';
import { submitPromptChange } from '../api/prompt-changes';
import { useOutboxItems } from '../../../lib/offline/use-outbox-items';
import { usePrompts } from '../api/prompts-query';
import { buildPromptCards } from '../model/prompt-cards';
import type { PromptChange, PromptType } from '../model/prompt';
import { PromptCardView } from './prompt-card-view';
import './prompts.css';

export default function PromptManagementPage() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const userKey = currentUserKey(session);
  const prompts = usePrompts();
  const { online } = useOnlineStatus();
  const { items, discard } = useOutboxItems(userKey);
  const [editing, setEditing] = useState<{ type: PromptType; initial: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<PromptType | null>(null);
  const [busy, setBusy] = useState(false);
  const cards = buildPromptCards(prompts.data, items);
  const language = i18n.resolvedLanguage ?? 'zh-CN';

  async function submit(
    change: PromptChange,
    failedKey: 'prompts.saveFailed' | 'prompts.deleteFailed',
  ): Promise<boolean> {
    if (!userKey) return false;
    setBusy(true);
    try {
      const outcome = await submitPromptChange(userKey, change);
      if (outcome.status === 'refused') {
        toast.error(t(failedKey, { message: outcome.message }));
        return true;
      }
      if (outcome.status === 'queued') toast.info(t('prompts.queuedOffline'));
      else if (outcome.status === 'retrying')
        toast.warning(t('prompts.queuedRetrying', { message: outcome.message }));
      else toast.success(t(change.action === 'delete' ? 'prompts.deleted' : 'prompts.saved'));
      return true;
    } catch (error) {
      toast.error(
        t('prompts.operationFailed', { message: error instanceof Error ? error.message : String(error) }),
      );
      return false;
    } finally {
      setBusy(false);
    }
  }

  const loadFailed = prompts.isError && !prompts.data;
  return (
    <div className="page prompts-page">
      <header className="page__header">
        <h1>{t('prompts.title')}</h1>
        <p>{t('prompts.subtitle')}</p>
      </header>

      {prompts.data && (!online || prompts.isError) ? (
        <SavedAtNote savedAt={prompts.dataUpdatedAt} online={online} />
      ) : null}

      {prompts.isPending ? (
        <div className="prompts-page__loading" role="status">
          <Spinner /> {t('prompts.loading')}
        </div>
      ) : loadFailed ? (
        <div className="prompts-page__failed" role="alert">
          <p>{t('prompts.loadFailed', { message: prompts.error.message })}</p>
          <button type="button" className="btn btn--ghost" onClick={() => void prompts.refetch()}>
            {t('prompts.retry')}
          </button>
        </div>
      ) : (
        <div className="prompts-page__grid">
          {cards.map((card) => (
            <PromptCardView
              key={card.type}
              card={card}
              language={language}
              busy={busy}
              editing={editing?.type === card.type ? { initial: editing.initial } : null}
              onEdit={(initial) => setEditing({ type: card.type, initial })}
              onCancelEdit={() => setEditing(null)}
              onSave={(content) =>
                void submit(
                  { action: card.exists ? 'update' : 'create', type: card.type, content },
                  'prompts.saveFailed',
                ).then((done) => done && setEditing(null))
              }
              onDelete={() => setConfirmDelete(card.type)}
              onRetry={(seq, change) => {
                void discard(seq);
                setEditing({ type: card.type, initial: change.content ?? '' });
              }}
              onDiscard={(seq) => void discard(seq)}
            />
          ))}
        </div>
      )}

      <ConfirmDialog
        open={confirmDelete !== null}
        title={t('prompts.confirmDeleteTitle', {
          type: confirmDelete ? t(`prompts.types.${confirmDelete}`) : '',
        })}
        message={t('prompts.confirmDeleteMessage')}
        confirmLabel={t('prompts.delete')}
        cancelLabel={t('prompts.cancel')}
        tone="danger"
        busy={busy}
        onCancel={() => setConfirmDelete(null)}
        onConfirm={() => {
          const type = confirmDelete;
          if (!type) return;
          void submit({ action: 'delete', type }, 'prompts.deleteFailed').then(() => setConfirmDelete(null));
        }}
      />
    </div>
  );
}
