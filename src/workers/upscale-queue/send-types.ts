// What one upscale request can end in, as the queue engine needs to tell the cases apart.
import type { TusAttempt, TusOutcome } from '../../lib/upload/tus-upload';
import type { QueueAuth, UpscaleParams } from './protocol';

export interface SendRequest {
  baseUrl: string;
  token: string | null;
  idempotencyKey: string;
  blob: Blob;
  fileName: string;
  params: UpscaleParams;
  /** The finished resumable upload of the file: sent as `image_upload_id` instead of the file part. */
  uploadId?: string;
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

/** One attempt at the file's resumable upload (lib/upload/tus-upload.ts in the worker). */
export type Uploader = (attempt: TusAttempt) => Promise<TusOutcome>;

export type Sender = (request: SendRequest, hooks: SendHooks, signal: AbortSignal) => Promise<SendOutcome>;

/** One image upscaled on this device (upscale-local/client.ts runs it in upscale-local.worker.ts). */
export interface LocalRequest {
  blob: Blob;
  fileName: string;
  params: UpscaleParams;
  auth: QueueAuth;
}

export type LocalOutcome =
  | { kind: 'ok'; blob: Blob; width: number; height: number }
  | { kind: 'error'; code: string; message: string }
  | { kind: 'aborted' };

export interface LocalUpscaler {
  /**
   * Whether this device can upscale with the model now: its graphs answer (from the network, or
   * from the service worker's cache when offline). Asked before an item falls back to the device.
   */
  ready(modelName: string, auth: QueueAuth): Promise<boolean>;
  run(request: LocalRequest, onProgress: (percent: number) => void, signal: AbortSignal): Promise<LocalOutcome>;
}
