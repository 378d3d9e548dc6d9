// One fabric's row: the fabric with its status and error in words, a cell per stage, its commands.
// Each cell is a stop of the grid's arrow keys (collection-grid.tsx moves the one tab stop).
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionItemView } from '../../../../../shared/collections/collection-types';
import type { CommandState } from '../../hooks/use-collection-commands';
import type { StageProgress } from '../../model/collection-events';
import { stageState, type ItemCommand } from '../../model/collection-stage-state';
import { CandidatesCell } from './candidates-cell';
import { GRID_COLUMNS, type GridColumn } from './grid-columns';
import { PickCell, VideoCell, VideoPromptsCell } from './media-cells';
import { RowActions } from './row-actions';
import { StageBadge } from './stage-badge';

interface Props {
  item: CollectionItemView;
  /** The row's place in the collection, from 1. */
  number: number;
  /** Its aria-rowindex (the header row is 1). */
  rowIndex: number;
  /** Its offset in the grid's body, in px. */
  top: number;
  activeColumn: number | null;
  command: CommandState;
  progress: StageProgress | undefined;
  onCommand: (item: CollectionItemView, command: ItemCommand) => void;
  onPick: (item: CollectionItemView, imageId: number) => void;
  onDismissError: (itemId: number) => void;
}

function FabricCell({ item, number, command, progress, onDismissError }: Pick<Props, 'item' | 'number' | 'command' | 'progress' | 'onDismissError'>) {
  const { t } = useTranslation();
  const percent = item.status === 'running' && progress?.stage === item.stage ? ` ${Math.round(progress.progress)}%` : '';
  const where = item.status === 'done' || item.status === 'skipped' || item.status === 'cancelled' ? '' : ` · ${t(`collections.grid.stage.${item.stage}`)}${percent}`;
  return (
    <div className="cg-fabric">
      <span className="cg-fabric__code">
        <span className="cg-fabric__number">{number}</span> {item.code}
      </span>
      {item.name ? <span className="cg-fabric__name">{item.name}</span> : null}
      <span className={`cg-status cg-status--${item.status}`} data-testid="row-status" data-status={item.status}>
        {t(`collections.grid.status.${item.status}`)}
        {where}
      </span>
      {command.error ? (
        <span className="cg-error" role="alert" data-testid="row-command-error">
          {command.error}{' '}
          <button type="button" className="cg-link" onClick={() => onDismissError(item.id)}>
            {t('collections.grid.dismiss')}
          </button>
        </span>
      ) : item.error ? (
        <span className="cg-error cg-clamp" title={item.error.message} data-testid="row-error">
          {item.error.message}
        </span>
      ) : null}
    </div>
  );
}

function GridRowView(props: Props) {
  const { item, rowIndex, top, activeColumn, command, progress, onCommand, onPick } = props;
  const progressOf = (stage: GridColumn) => (progress && progress.stage === stage ? progress.progress : undefined);
  const content = (column: GridColumn): ReactNode => {
    switch (column) {
      case 'fabric':
        return <FabricCell {...props} />;
      case 'analysis':
        return <StageBadge state={stageState(item, 'analysis')} progress={progressOf('analysis')} />;
      case 'candidates':
        return (
          <div className="cg-text-cell">
            {item.candidates.length ? null : <StageBadge state={stageState(item, 'candidates')} progress={progressOf('candidates')} />}
            <CandidatesCell item={item} busy={command.busy !== null} onPick={(imageId) => onPick(item, imageId)} />
          </div>
        );
      case 'pick':
        return <PickCell item={item} />;
      case 'video_prompts':
        return <VideoPromptsCell item={item} progress={progressOf('video_prompts')} />;
      case 'video':
        return <VideoCell item={item} progress={progressOf('video')} />;
      case 'actions':
        return <RowActions item={item} busy={command.busy} onCommand={(c) => onCommand(item, c)} />;
    }
  };
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      className={`cg-row cg-row--${item.status}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid="collection-row"
      data-code={item.code}
      data-status={item.status}
      data-item-id={item.id}
      aria-busy={command.busy !== null}
    >
      {GRID_COLUMNS.map((column, index) => (
        <div
          key={column}
          role={column === 'fabric' ? 'rowheader' : 'gridcell'}
          aria-colindex={index + 1}
          className={`cg-cell cg-cell--${column}`}
          tabIndex={activeColumn === index ? 0 : -1}
          data-col={index}
        >
          {content(column)}
        </div>
      ))}
    </div>
  );
}

/** Rows re-render only when their item, command or progress changes (events touch one row at a time). */
export const GridRow = memo(GridRowView);
