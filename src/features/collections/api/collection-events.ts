// GET /collections/:id/events: the collection's event stream (snapshot first, then item, status,
// progress, and end when it completes or is cancelled), read with the app's GET stream reader.
import type { CollectionEvent } from '../../../../shared/collections/collection-types';
import type { StreamOutcome } from '../../../lib/api';
import { getEventStream } from '../../../lib/api/get-event-stream';

export function followCollectionEvents(
  id: number,
  onEvent: (event: CollectionEvent) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  return getEventStream<CollectionEvent>({
    path: `/collections/${id}/events`,
    onEvent,
    isFinal: (event) => event.type === 'end',
    signal,
  });
}
