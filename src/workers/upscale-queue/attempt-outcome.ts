// What the end of one attempt means for its item, on the server or on this device. Pure: the
// engine applies the verdict (persisting, pausing, asking the probe).
import type { QueueError, QueueItem, QueueResult } from './protocol';
import type { LocalOutcome, SendOutcome } from './send-types';

/** Answers from a gateway or a timeout: the request may have reached the service, as with a cut. */
export const CUT_STATUSES: ReadonlySet<number> = new Set([408, 502, 504]);

export type ServerVerdict =
  | { kind: 'completed'; outcome: Extract<SendOutcome, { kind: 'ok' }> }
  | { kind: 'cancelled' }
  /** Failed on the way; the item waits its retry delay, interrupted if the server may have it. */
  | { kind: 'in-transit'; mayHaveReachedServer: boolean; retryAfterMs?: number }
  /** Refused before any work (401): the queue waits for a fresh token, then sends again. */
  | { kind: 'needs-token' }
  /** The service is full and did not take the job (429, 503): back off and send again. */
  | { kind: 'service-busy'; retryAfterMs?: number }
  | { kind: 'failed'; error: QueueError }
  /**
   * The call named a resumable upload the server does not have whole: gone (404
   * upload_not_found: expired or swept, so upload the file anew) or unfinished (409
   * upload_incomplete: resume it). Then call again.
   */
  | { kind: 'upload-again'; restart: boolean };

/** The server's codes for a referenced upload it cannot use (the tus contract). */
export const UPLOAD_NOT_FOUND = 'upload_not_found';
export const UPLOAD_INCOMPLETE = 'upload_incomplete';

export function serverVerdict(outcome: SendOutcome, bytesSent: boolean): ServerVerdict {
  switch (outcome.kind) {
    case 'ok':
      return { kind: 'completed', outcome };
    case 'aborted':
      return { kind: 'cancelled' };
    case 'network':
      return { kind: 'in-transit', mayHaveReachedServer: bytesSent || outcome.reachedServer === true };
    case 'http-error': {
      const { status } = outcome;
      if (status === 404 && outcome.code === UPLOAD_NOT_FOUND) return { kind: 'upload-again', restart: true };
      if (status === 409 && outcome.code === UPLOAD_INCOMPLETE) return { kind: 'upload-again', restart: false };
      if (CUT_STATUSES.has(status)) return { kind: 'in-transit', mayHaveReachedServer: true, retryAfterMs: outcome.retryAfterMs };
      if (status === 401) return { kind: 'needs-token' };
      if (status === 429 || status === 503) return { kind: 'service-busy', retryAfterMs: outcome.retryAfterMs };
      return { kind: 'failed', error: { code: outcome.code, status, message: outcome.message } };
    }
  }
}

export function serverResult(outcome: Extract<SendOutcome, { kind: 'ok' }>, startedAt: number, now: number): QueueResult {
  return {
    url: outcome.url,
    filename: outcome.filename,
    message: outcome.message,
    durationMs: now - startedAt,
    completedAt: now,
    madeOn: 'server',
    ...(outcome.width && outcome.height ? { width: outcome.width, height: outcome.height } : {}),
  };
}

/** A result made here has no link: its file is kept on the device from the start. */
export function deviceResult(
  item: QueueItem,
  outcome: Extract<LocalOutcome, { kind: 'ok' }>,
  startedAt: number,
  now: number,
): QueueResult {
  return {
    url: '',
    filename: item.fileName,
    message: '',
    durationMs: now - startedAt,
    completedAt: now,
    outputSize: outcome.blob.size,
    outputType: outcome.blob.type,
    width: outcome.width,
    height: outcome.height,
    madeOn: 'device',
  };
}

/**
 * A fallback whose model graphs went away with the service: the item waits for the service
 * rather than failing. An item the designer sent "on this device" has no service to wait for.
 */
export function waitsForService(outcome: Extract<LocalOutcome, { kind: 'error' }>, item: QueueItem): boolean {
  return outcome.code === 'models_unavailable' && !item.params.onDevice;
}

/**
 * A tus request's refusal, before the upscale call: the upload is gone (404, 410: expired or swept,
 * so start a new one), or busy or out of step for a moment (423 locked while the server still
 * holds the cut request; 409 an offset the server no longer has: a HEAD tells the right one), so
 * resume it after the retry delay. Anything else means what it means for the upscale call.
 */
export function tusRefusal(status: number): 'start-anew' | 'resume' | 'as-is' {
  if (status === 404 || status === 410) return 'start-anew';
  if (status === 409 || status === 423) return 'resume';
  return 'as-is';
}
