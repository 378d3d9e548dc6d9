// The event stream of one workshop item (GET /workshop/items/:id/events on the third group): where
// the item is (replayed from the server on connect), its text as it is written, then the item as
// it ended. The shapes are the analysis stream's.
import { getEventStream } from '../../../lib/api/get-event-stream';
import type { StreamOutcome } from '../../../lib/api/event-stream';
import type { ServerStatus, WorkshopItem } from '../model/workshop-item';

export type WorkshopStreamEvent =
  | { type: 'progress'; status?: ServerStatus; message?: string; retry_in_ms?: number; reason?: string }
  | { type: 'streaming'; content: string; offset?: number }
  | { type: 'streaming_reset' }
  | { type: 'complete'; data: WorkshopItem }
  | { type: 'error'; code?: string; message?: string; data?: WorkshopItem };

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
