// What the page shows of an item while it runs, from its event stream: the text written so far
// (pieces placed at their offsets, dropped when a new attempt starts, so no sentence shows twice)
// and when a retry is due.
import { placeStreamed } from '../../../lib/api/streamed-text';
import type { WorkshopStreamEvent } from '../api/workshop-stream';

export interface LiveText {
  text: string;
  /** When the server tries again after a provider's refusal (epoch ms), or null. */
  retryAt: number | null;
}

export const NO_LIVE_TEXT: LiveText = { text: '', retryAt: null };

export function applyWorkshopEvent(live: LiveText, event: WorkshopStreamEvent, now: number): LiveText {
  switch (event.type) {
    case 'streaming':
      return { text: placeStreamed(live.text, event.content, event.offset), retryAt: null };
    case 'streaming_reset':
      return { ...live, text: '' };
    case 'progress':
      return { ...live, retryAt: typeof event.retry_in_ms === 'number' ? now + event.retry_in_ms : null };
    default:
      return live;
  }
}
