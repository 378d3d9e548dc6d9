// Create, update and delete go through the outbox: stored first, then sent at once when online,
// or replayed on reconnect / after a reload, each with its own Idempotency-Key.
import { outbox, syncOutbox } from '../../../lib/offline/app-outbox';
import { getOnlineStatus } from '../../../lib/offline/online-status';
import type { QueuedPayload } from '../../../lib/offline/queued-request';
import { queryKeys } from '../../../lib/query/query-keys';
import { PROMPT_OUTBOX_KIND } from '../model/prompt-cards';
import type { PromptChange } from '../model/prompt';

export type ChangeOutcome =
  | { status: 'applied' }
  /** Offline: it waits for the connection. */
  | { status: 'queued' }
  /** Online, but the server failed (5xx, 408, 429): kept and retried on a backoff; the message says why. */
  | { status: 'retrying'; message: string }
  | { status: 'refused'; message: string };

function requestFor(change: PromptChange): QueuedPayload<PromptChange>['request'] {
  switch (change.action) {
    case 'create':
      return {
        group: 'main',
        method: 'POST',
        url: '/prompts/',
        data: { type: change.type, content: change.content },
      };
    case 'update':
      return {
        group: 'main',
        method: 'PUT',
        url: `/prompts/${change.type}/`,
        data: { content: change.content },
      };
    case 'delete':
      return { group: 'main', method: 'DELETE', url: `/prompts/${change.type}/` };
  }
}

export async function submitPromptChange(userKey: string, change: PromptChange): Promise<ChangeOutcome> {
  const payload: QueuedPayload<PromptChange> = {
    request: requestFor(change),
    invalidates: [queryKeys.prompts.all],
    change,
  };
  const record = await outbox.enqueue(userKey, PROMPT_OUTBOX_KIND, payload);
  const report = await syncOutbox(userKey);
  const refused = report.refused.find((r) => r.id === record.id);
  if (refused) return { status: 'refused', message: refused.error ?? '' };
  if (report.sent.some((r) => r.id === record.id)) return { status: 'applied' };
  if (report.failure && getOnlineStatus().online)
    return { status: 'retrying', message: report.failure.message };
  return { status: 'queued' };
}
