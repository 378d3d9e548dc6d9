// A row's commands for its status (approve, retry, skip, regenerate), each a POST with its busy
// state; the failure of the last one is said beside the row (collection-grid keeps it).
import { useTranslation } from 'react-i18next';
import type { CollectionItemView } from '../../../../../shared/collections/collection-types';
import { Spinner } from '../../../../components/spinner';
import { commandsFor, type ItemCommand } from '../../model/collection-stage-state';

interface Props {
  item: CollectionItemView;
  busy: string | null;
  onCommand: (command: ItemCommand) => void;
}

export function RowActions({ item, busy, onCommand }: Props) {
  const { t } = useTranslation();
  const commands = commandsFor(item);
  if (!commands.length) return null;
  return (
    <div className="cg-actions">
      {commands.map((command) => (
        <button
          key={command}
          type="button"
          className={`cg-action${command === 'approve' || command === 'retry' ? ' cg-action--primary' : ''}`}
          disabled={busy !== null}
          aria-busy={busy === command}
          aria-label={t(`collections.grid.commandLabel.${command}`, { code: item.code })}
          onClick={() => onCommand(command)}
          data-testid={`row-${command}`}
        >
          {busy === command ? <Spinner size={14} /> : null}
          {t(`collections.grid.command.${command}`)}
        </button>
      ))}
    </div>
  );
}
