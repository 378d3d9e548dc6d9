// GET /workshop/items/:id/events: one item followed to its end as an event stream, in the analyse
// stream's shapes: progress {status, message, retry_in_ms?}, streaming {content, offset} as the
// text is written, streaming_reset when a new attempt starts after text was shown, then complete
// {data: the item} or error {code, message, data}. It first says where the item is, from its row
// (the text written so far included), so a stream that reconnects carries on where it was; the
// work does not depend on the stream.
import { message, type Locale, type MessageKey } from '../../http/messages.js';
import type { EventStream } from '../generation/event-stream.js';
import type { GenerationContext } from '../generation/generation-context.js';
import { workshopTopic, type WorkshopEvent } from './workshop-job.js';
import type { WorkshopRepository } from './workshop-repository.js';
import type { WorkshopItemRow } from './workshop-table.js';
import type { createWorkshopViews } from './workshop-views.js';
import type { WorkshopStreamEvent } from './workshop-stream-events.js';

export async function streamWorkshopItem(
  ctx: GenerationContext,
  repo: WorkshopRepository,
  views: ReturnType<typeof createWorkshopViews>,
  id: number,
  stream: EventStream<WorkshopStreamEvent>,
  locale: Locale,
): Promise<void> {
  const say = (key: MessageKey) => message(key, locale);
  /** How much of this attempt's text this stream has sent; what it sent is never sent again. */
  let shown = 0;
  let ended = false;
  const sendText = (content: string, offset: number) => {
    stream.send({ type: 'streaming', content, offset });
    shown = offset + content.length;
  };
  const end = async (row: WorkshopItemRow) => {
    if (ended) return;
    ended = true;
    const [view] = await views.items([row], locale);
    if (row.status === 'completed') {
      stream.send({ type: 'complete', data: view! });
    } else {
      stream.send({ type: 'error', code: view!.error?.code ?? 'internal', message: view!.error?.message ?? say('workshop_failed'), data: view! });
    }
    stream.end();
  };
  /** Where the item is now, from its row. */
  const replay = async () => {
    const row = await repo.item(id);
    if (!row) return stream.end();
    if (row.status === 'completed' || row.status === 'error') return end(row);
    stream.send({ type: 'progress', status: row.status, message: say(row.status === 'pending' ? 'progress_queued' : 'progress_generating') });
    if (row.status === 'processing' && row.result_text) sendText(row.result_text, 0);
  };
  const handle = async (event: WorkshopEvent) => {
    if (stream.closed || ended) return;
    switch (event.type) {
      case 'started':
        stream.send({ type: 'progress', status: 'processing', message: say('progress_generating') });
        break;
      case 'text': {
        const stop = event.offset + event.content.length;
        if (stop <= shown) break;
        if (event.offset <= shown) {
          sendText(event.content.slice(shown - event.offset), shown);
          break;
        }
        // A piece past what this stream has sent (not expected: the row holds every piece before
        // it is published): the whole text so far from the row, placed at 0, closes the gap.
        const sofar = (await repo.item(id))?.result_text ?? '';
        if (sofar.length >= stop) sendText(sofar, 0);
        else sendText(event.content, event.offset);
        break;
      }
      case 'text_reset':
        // A new attempt after this stream showed text: the reader drops it, so no sentence is read twice.
        if (shown > 0) stream.send({ type: 'streaming_reset' });
        shown = 0;
        break;
      case 'retrying':
        stream.send({ type: 'progress', status: 'processing', message: say('progress_generating'), retry_in_ms: event.delay_ms, reason: event.code });
        break;
      case 'completed':
      case 'failed': {
        const row = await repo.item(id);
        if (row) await end(row);
        break;
      }
      default:
        break;
    }
  };

  // Live events wait until the row has been read: they come after what it says, in order.
  let opened: () => void = () => {};
  let queue = new Promise<void>((resolve) => (opened = resolve));
  const fail = (error: unknown) => {
    ctx.log.error({ err: error }, 'workshop stream could not send an event');
    if (ended) return;
    ended = true;
    stream.send({ type: 'error', code: 'internal', message: say('workshop_failed') });
    stream.end();
  };
  const unsubscribe = ctx.jobs.onProgress(workshopTopic(id), (raw) => {
    queue = queue.then(() => handle(raw as WorkshopEvent)).catch(fail);
  });
  try {
    await replay().catch(fail);
    opened();
    await stream.finished;
  } finally {
    opened();
    unsubscribe();
    await queue;
  }
}
