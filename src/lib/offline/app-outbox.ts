// The app's outbox: IndexedDB storage, replay through the API client with the item's id as the
// Idempotency-Key, and the signed-in user as the only user whose items may be sent.
import { isApiError, request } from '../api';
import type { OutboxRecord } from '../db/schema';
import { queryClient } from '../query/query-client';
import { transientFailure } from '../retry/transient-failure';
import { getSession } from '../session/session-store';
import { beginWork } from './busy-work';
import { getOnlineStatus, reportReachable, reportUnreachable } from './online-status';
import { createOutbox, type FailureVerdict, type FlushReport } from './outbox';
import { idbOutboxStorage } from './outbox-store';
import { IDEMPOTENCY_HEADER, isQueuedPayload } from './queued-request';
import { createRetrySchedule } from './retry-schedule';
import { currentUserKey } from './user-key';

export function classifyFailure(error: unknown): FailureVerdict {
  const message = error instanceof Error ? error.message : String(error);
  if (!isApiError(error)) return { kind: 'retry', message };
  // No answer, a server that is down or overloaded (the shared policy's transient failures), an
  // expired session, a request cut short: the change stays queued.
  const transient = transientFailure(error);
  if (transient) return { kind: 'retry', message, retryAfterMs: transient.retryAfterMs };
  if (error.kind === 'cancelled' || error.kind === 'unknown' || error.status === 401) return { kind: 'retry', message };
  return { kind: 'refused', message };
}

async function send(record: OutboxRecord, signal: AbortSignal): Promise<unknown> {
  if (!isQueuedPayload(record.payload)) throw new Error(`outbox item ${record.id} has no request`);
  const { group, method, url, data } = record.payload.request;
  try {
    const result = await request<unknown>(group, {
      method,
      url,
      data,
      signal,
      headers: { [IDEMPOTENCY_HEADER]: record.id },
    });
    reportReachable();
    return result;
  } catch (error) {
    if (isApiError(error) && error.kind === 'network') reportUnreachable();
    throw error;
  }
}

export const outbox = createOutbox({
  storage: idbOutboxStorage,
  send,
  classify: classifyFailure,
  currentUser: () => currentUserKey(getSession()),
});

const gaveUpListeners = new Set<() => void>();

/** Told when automatic retries stopped after the policy's budget (the changes stay queued). */
export function onOutboxGaveUp(listener: () => void): () => void {
  gaveUpListeners.add(listener);
  return () => gaveUpListeners.delete(listener);
}

// A server error while online changes nothing about connectivity, so no reconnect would replay
// the queue: try again on the shared policy's backoff until it goes through, the app goes
// offline, logout, or the budget is spent (then the next reconnect, sign-in or change sends it).
const retry = createRetrySchedule(
  () => {
    const key = currentUserKey(getSession());
    if (key) void syncOutbox(key);
  },
  { onGiveUp: () => gaveUpListeners.forEach((l) => l()) },
);

/** Replays the user's queue (marked as running work, so an update waits) and refreshes what changed. */
export async function syncOutbox(userKey: string): Promise<FlushReport> {
  const done = beginWork('work.syncing');
  try {
    const report = await outbox.flush(userKey);
    if (report.failure && getOnlineStatus().online) {
      // Something went through before the failure: the backoff starts over.
      if (report.sent.length > 0) retry.reset();
      retry.schedule(report.failure.retryAfterMs);
    } else if (report.failure)
      retry.cancel(); // offline: the reconnect replays it
    else if (!report.stopped) retry.reset();
    // A refusal means the server's state differs from what the user saw: refresh that too.
    for (const item of [...report.sent, ...report.refused]) {
      if (!isQueuedPayload(item.payload)) continue;
      for (const queryKey of item.payload.invalidates)
        await queryClient.invalidateQueries({ queryKey: [...queryKey] });
    }
    return report;
  } finally {
    done();
  }
}

/** Logout: no planned retry, the request in flight aborted, nothing written back afterwards. */
export async function stopOutbox(): Promise<void> {
  retry.cancel();
  await outbox.halt();
}

/** A user signed in: their queue may be replayed again. */
export function resumeOutbox(): void {
  retry.reset();
  outbox.resume();
}
