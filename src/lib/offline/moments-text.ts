// The moments text of a generated image, saved with the image through the outbox: stored on the
// device first, sent at once when online, or replayed on reconnect / after a reload, each with its
// own Idempotency-Key. Both the workflow's candidates and history save it this way.
import { queryKeys } from '../query/query-keys';
import { outbox, syncOutbox } from './app-outbox';
import { getOnlineStatus } from './online-status';
import type { QueuedPayload } from './queued-request';

export const MOMENTS_OUTBOX_KIND = 'moments-text';

export interface MomentsChange {
  imageId: number;
  text: string;
}

export type SaveOutcome =
  | { status: 'saved' }
  /** Offline: kept on the device and sent when the connection is back. */
  | { status: 'queued' }
  /** Online but the server failed: kept and retried on a backoff. */
  | { status: 'retrying'; message: string }
  | { status: 'refused'; message: string };

export async function saveMomentsText(userKey: string, change: MomentsChange): Promise<SaveOutcome> {
  const payload: QueuedPayload<MomentsChange> = {
    request: { group: 'main', method: 'PUT', url: `/user/generated-images/${change.imageId}/moments`, data: { moments_text: change.text } },
    invalidates: [queryKeys.history.all],
    change,
  };
  const record = await outbox.enqueue(userKey, MOMENTS_OUTBOX_KIND, payload);
  const report = await syncOutbox(userKey);
  const refused = report.refused.find((r) => r.id === record.id);
  if (refused) return { status: 'refused', message: refused.error ?? '' };
  if (report.sent.some((r) => r.id === record.id)) return { status: 'saved' };
  if (report.failure && getOnlineStatus().online) return { status: 'retrying', message: report.failure.message };
  return { status: 'queued' };
}
