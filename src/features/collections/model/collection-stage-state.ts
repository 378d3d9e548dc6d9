// What one cell of the grid says about one stage of one row: done, running, queued, waiting for
// review, failed, not reached yet, or stopped (the row was skipped or cancelled before it).
import { STAGES, type CollectionItemView, type Stage } from '../../../../shared/collections/collection-types';

export type StageState = 'done' | 'running' | 'queued' | 'review' | 'failed' | 'waiting' | 'stopped';

export function stageState(item: Pick<CollectionItemView, 'status' | 'stage'>, stage: Stage): StageState {
  if (item.status === 'done') return 'done';
  const current = STAGES.indexOf(item.stage);
  const index = STAGES.indexOf(stage);
  if (index < current) return 'done';
  const stopped = item.status === 'skipped' || item.status === 'cancelled';
  if (index > current) return stopped ? 'stopped' : 'waiting';
  switch (item.status) {
    case 'running':
      return 'running';
    case 'queued':
      return 'queued';
    case 'review':
      return 'review';
    case 'failed':
      return 'failed';
    default:
      return 'stopped';
  }
}

export type ItemCommand = 'approve' | 'retry' | 'skip' | 'regenerate';

/** The row commands the server accepts for a row in this status (the contract's moves). */
export function commandsFor(item: Pick<CollectionItemView, 'status'>): ItemCommand[] {
  switch (item.status) {
    case 'review':
      return ['approve', 'skip', 'regenerate'];
    case 'failed':
      return ['retry', 'skip', 'regenerate'];
    case 'queued':
      return ['skip'];
    case 'done':
      return ['regenerate'];
    default:
      return [];
  }
}

/** Another candidate may be chosen while the row waits for review after its pick (the server's rule). */
export function mayChangePick(item: Pick<CollectionItemView, 'status' | 'candidates'>): boolean {
  if (item.status !== 'review') return false;
  return item.candidates.filter((c) => c.status === 'completed').length > 1;
}
