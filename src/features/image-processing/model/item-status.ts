// What a queue item's state reads as: one i18n key per state, and the failure text (the server's
// own message when it sent one, else spec §8's message for the status).
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { RETRY_BUDGET_SPENT } from '../../../workers/upscale-queue/retry-budget';

const K = 'imageProcessing';

export function statusKey(item: QueueItem): string {
  if (item.status === 'processing' && item.runningLocally) return `${K}.status.onDevice`;
  if (item.status === 'processing' && item.progress >= 100) return `${K}.status.upscaling`;
  return `${K}.status.${item.status}`;
}

/** i18n key and values for a failed item's reason, or the server's message as received. */
export function failureText(item: QueueItem): { key: string } | { text: string } | null {
  const error = item.error;
  if (!error) return null;
  if (error.code === 'source-missing') return { key: `${K}.errors.sourceMissing` };
  if (error.code === RETRY_BUDGET_SPENT) return { key: `${K}.errors.retryBudgetSpent` };
  if (error.message) return { text: error.message };
  switch (error.status) {
    case 403:
      return { key: `${K}.errors.noPermission` };
    case 404:
      return { key: `${K}.errors.notFound` };
    case 413:
      return { key: `${K}.errors.tooLarge` };
    case 500:
      return { key: `${K}.errors.server` };
    case 502:
    case 503:
      return { key: `${K}.errors.unavailable` };
    default:
      return { key: `${K}.errors.upscaleFailed` };
  }
}

/** The item failed on the way and waits to be sent again by itself (shown as "retrying in 8 s"). */
export function isRetrying(item: QueueItem): boolean {
  return item.retry !== undefined && item.status === 'waiting';
}

export function isOpen(item: QueueItem): boolean {
  return item.status === 'waiting' || item.status === 'processing' || item.status === 'interrupted';
}
