// The collection's commands: pause or resume, cancel (asked to confirm first, it cannot be undone)
// and retry every failed row; each busy until the server answers, its failure said under them.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionView } from '../../../../../shared/collections/collection-types';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { Spinner } from '../../../../components/spinner';
import type { CollectionCommand } from '../../api/collection-commands';
import type { CollectionCommands } from '../../hooks/use-collection-commands';

export function CollectionControls({ view, commands }: { view: CollectionView; commands: CollectionCommands }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const { busy, error } = commands.collection;
  const running = view.status === 'running';
  const paused = view.status === 'paused';
  const failed = view.counts.failed;

  const button = (command: CollectionCommand, label: string, className: string, onClick?: () => void) => (
    <button
      type="button"
      className={`btn ${className}`}
      disabled={busy !== null}
      aria-busy={busy === command}
      onClick={onClick ?? (() => void commands.runCollection(command))}
      data-testid={`collection-${command}`}
    >
      {busy === command ? <Spinner size={16} /> : null}
      {label}
    </button>
  );

  return (
    <div className="cg-controls">
      <div className="cg-controls__buttons">
        {running ? button('pause', t('collections.grid.pause'), 'btn--ghost') : null}
        {paused ? button('resume', t('collections.grid.resume'), 'btn--primary') : null}
        {failed > 0 && view.status !== 'cancelled' ? button('retry-failed', t('collections.grid.retryFailed', { count: failed }), 'btn--ghost') : null}
        {running || paused ? button('cancel', t('collections.grid.cancel'), 'btn--danger-outline', () => setConfirming(true)) : null}
      </div>
      {error ? (
        <p className="cg-error" role="alert" data-testid="collection-command-error">
          {error}{' '}
          <button type="button" className="cg-link" onClick={commands.dismissCollection}>
            {t('collections.grid.dismiss')}
          </button>
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={t('collections.grid.cancelTitle')}
        message={t('collections.grid.cancelMessage', { name: view.name })}
        confirmLabel={t('collections.grid.cancelConfirm')}
        cancelLabel={t('collections.grid.cancelKeep')}
        tone="danger"
        busy={busy === 'cancel'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          void commands.runCollection('cancel').then(() => setConfirming(false));
        }}
      />
    </div>
  );
}
