// What an outbox item holds: the HTTP call to replay, the queries it makes stale, and the
// feature's own view of the change (for prompts: type and the user's text, kept on refusal).
import type { ApiGroup } from '../api';

export interface QueuedRequest {
  group: ApiGroup;
  method: 'POST' | 'PUT' | 'DELETE';
  url: string;
  data?: unknown;
}

export interface QueuedPayload<T = unknown> {
  request: QueuedRequest;
  /** Query keys to refetch once the server has applied it. */
  invalidates: readonly (readonly unknown[])[];
  change: T;
}

export function isQueuedPayload(value: unknown): value is QueuedPayload {
  const request = (value as { request?: Partial<QueuedRequest> } | null)?.request;
  return !!request && typeof request.url === 'string' && typeof request.method === 'string';
}

export { IDEMPOTENCY_HEADER } from '../api/idempotency-key';
