// What a self-hosted engine told about a task (its queue position, the sampler's steps, the
// video's frames), as a sentence in the reader's language for the progress events.
import { message, type Locale } from '../../../http/messages.js';
import type { TaskProgress } from '../../../providers/capabilities.js';

export function engineProgressMessage(detail: TaskProgress | undefined, locale: Locale): string | undefined {
  if (!detail) return undefined;
  if (detail.stage) {
    const { unit, value, max } = detail.stage;
    return message(unit === 'frames' ? 'progress_frames' : 'progress_steps', locale, { value, max });
  }
  // Nothing ahead: the prompt runs next (the running one is counted as ahead while it runs).
  if (detail.queueAhead === 0) return message('progress_queue_next', locale);
  if (detail.queueAhead !== undefined) return message('progress_queue_position', locale, { ahead: detail.queueAhead });
  if (detail.fraction !== undefined) return message('progress_engine_loading', locale);
  return undefined;
}
