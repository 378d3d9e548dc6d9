// What each event of GET /collections/:id/events does to the page's copy of the collection: a
// snapshot or the end replaces it, an item event puts the row in place with the new counts, a
// status event moves the collection, a progress event moves a row's video. Pure, so the reducer
// the hook runs is the one the unit tests check.
import type {
  CollectionEvent,
  CollectionItemView,
  CollectionView,
} from '../../../../shared/collections/collection-types';

/** A row's live progress in its running stage (0..100); not part of the view the server answers. */
export interface StageProgress {
  stage: CollectionItemView['stage'];
  progress: number;
}

function putItem(items: readonly CollectionItemView[], item: CollectionItemView): CollectionItemView[] {
  const index = items.findIndex((i) => i.id === item.id);
  if (index === -1) return [...items, item].sort((a, b) => a.position - b.position);
  const next = items.slice();
  next[index] = item;
  return next;
}

export function applyCollectionEvent(view: CollectionView | undefined, event: CollectionEvent): CollectionView | undefined {
  switch (event.type) {
    case 'snapshot':
    case 'end':
      return event.collection;
    case 'item':
      if (!view) return view;
      return {
        ...view,
        items: putItem(view.items, event.item),
        counts: event.counts,
        by_stage: event.by_stage,
        estimate_ms: event.estimate_ms,
      };
    case 'status':
      return view ? { ...view, status: event.status } : view;
    case 'progress': {
      if (!view || event.stage !== 'video') return view;
      const index = view.items.findIndex((i) => i.id === event.item_id);
      const item = view.items[index];
      if (!item?.video) return view;
      const items = view.items.slice();
      items[index] = { ...item, video: { ...item.video, progress: event.progress } };
      return { ...view, items };
    }
  }
}

/** The progress map after an event: set by progress, cleared for a row that moved or for all on a snapshot. */
export function applyProgressEvent(
  progress: ReadonlyMap<number, StageProgress>,
  event: CollectionEvent,
): ReadonlyMap<number, StageProgress> {
  if (event.type === 'progress') {
    const next = new Map(progress);
    next.set(event.item_id, { stage: event.stage, progress: Math.max(0, Math.min(100, event.progress)) });
    return next;
  }
  if (event.type === 'item') {
    const current = progress.get(event.item.id);
    if (!current || (current.stage === event.item.stage && event.item.status === 'running')) return progress;
    const next = new Map(progress);
    next.delete(event.item.id);
    return next;
  }
  if (event.type === 'snapshot' || event.type === 'end') return progress.size ? new Map() : progress;
  return progress;
}

/** A collection that will not move again unless the person asks (retry failed). */
export function isFinished(view: Pick<CollectionView, 'status'>): boolean {
  return view.status === 'completed' || view.status === 'cancelled';
}
