// The event stream of one workshop item (GET /workshop/items/:id/events on the third group): where
// the item is (replayed from the server on connect), its text as it is written, then the item as
// it ended. The shapes are the analysis stream's.
import { getEventStream } from '../../../lib/api/get-event-stream';
import type { StreamOutcome } from '../../../lib/api/event-stream';
import type { ApiSchema } from '../../../lib/api/api-types';

/** The stream's events as the server's schema says (generated API types). */
export type WorkshopStreamEvent = ApiSchema<'WorkshopStreamEvent'>;

export const isFinalWorkshopEvent = (e: WorkshopStreamEvent) => e.type === 'complete' || e.type === 'error';

/** Resolves with how the stream ended ('completed' after complete or error); rejects when it cannot be opened. */
export function streamWorkshopItem(id: number, onEvent: (e: WorkshopStreamEvent) => void, signal: AbortSignal): Promise<StreamOutcome> {
  return getEventStream<WorkshopStreamEvent>({
    group: 'third',
    path: `/workshop/items/${id}/events`,
    onEvent,
    isFinal: isFinalWorkshopEvent,
    signal,
  });
}
