// The collection's commands (pause, resume, cancel, retry failed) and a row's (pick, approve,
// retry, skip, regenerate): each a POST answering the collection's id and status. The rows' new
// states arrive over the event stream (or the next read of the view).
import type { CollectionRef } from '../../../../shared/collections/collection-types';
import { http } from '../../../lib/api';
import type { ItemCommand } from '../model/collection-stage-state';

export type CollectionCommand = 'pause' | 'resume' | 'cancel' | 'retry-failed';

export function postCollectionCommand(id: number, command: CollectionCommand): Promise<CollectionRef> {
  return http.post<CollectionRef>('main', `/collections/${id}/${command}`, {});
}

export type RowCommand = { kind: ItemCommand } | { kind: 'pick'; imageId: number };

export function postItemCommand(id: number, itemId: number, command: RowCommand): Promise<CollectionRef> {
  const body = command.kind === 'pick' ? { image_id: command.imageId } : {};
  return http.post<CollectionRef>('main', `/collections/${id}/items/${itemId}/${command.kind}`, body);
}
