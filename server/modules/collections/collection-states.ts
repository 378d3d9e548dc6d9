// The state machines of a collection and of its items. Every write after the insert is a guarded
// move (as server/modules/generation/store/row-states.ts): UPDATE … WHERE status IN (the states the
// table allows the move from), so a stage ending after a cancel, or two commands at once, can
// never bring a finished or cancelled row back.
import type { CollectionStatus, ItemStatus } from '../../../shared/collections/collection-types.js';
import type { MoveTable } from '../generation/store/row-states.js';

/**
 * Items. queued → running when the feeder starts one; running → running when a stage hands over
 * to the next; running → queued when a pause stops it between stages; review after the pick when
 * the person decides; failed → queued on a retry; done/review/failed → queued on a regenerate;
 * queued → queued when the create call links a new item to its request.
 */
export const ITEM_MOVES: MoveTable<ItemStatus> = {
  queued: ['queued', 'running', 'failed', 'review', 'done'],
  running: ['queued', 'running', 'review'],
  review: ['running'],
  done: ['running'],
  failed: ['running'],
  skipped: ['queued', 'review', 'failed'],
  cancelled: ['queued', 'running', 'review'],
};

/** Items that still have work ahead of them: they count against the per-user cap and a cancel ends them. */
export const OPEN_ITEM_STATUSES: readonly ItemStatus[] = ['queued', 'running', 'review'];

/** Items that will not run again unless a person asks (retry, regenerate). */
export const SETTLED_ITEM_STATUSES: readonly ItemStatus[] = ['done', 'failed', 'skipped', 'cancelled'];

/**
 * Collections. A completed collection runs again when a person retries or regenerates one of its
 * items (completed → running); a cancelled one is final. A paused one completes when its last
 * running stage fails.
 */
export const COLLECTION_MOVES: MoveTable<CollectionStatus> = {
  running: ['paused', 'completed', 'running'],
  paused: ['running'],
  cancelled: ['running', 'paused'],
  completed: ['running', 'paused'],
};
