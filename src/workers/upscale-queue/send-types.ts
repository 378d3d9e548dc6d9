// What one upscale request can end in, as the queue engine needs to tell the cases apart.
import type { UpscaleParams } from './protocol';

export interface SendRequest {
  baseUrl: string;
  token: string | null;
  idempotencyKey: string;
  blob: Blob;
  fileName: string;
  params: UpscaleParams;
}

export interface SendHooks {
  onProgress(percent: number): void;
  /** Called once, when the first byte of the request body has left the device. */
  onBytesSent(): void;
}

export type SendOutcome =
  | { kind: 'ok'; url: string; filename: string; message: string; width?: number; height?: number }
  | { kind: 'http-error'; status: number; code: string | number; message: string; retryAfterMs?: number }
  /** No response. reachedServer: some of the request left the device, so the server may have it. */
  | { kind: 'network'; reachedServer: boolean }
  | { kind: 'aborted' };

export type Sender = (request: SendRequest, hooks: SendHooks, signal: AbortSignal) => Promise<SendOutcome>;
