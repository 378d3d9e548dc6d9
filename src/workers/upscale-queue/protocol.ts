// The upscale queue's shared vocabulary: what the worker persists, reports and accepts over RPC.
// Imported by the worker and by the main-thread bridge, so it holds types and constants only.
import type { RetryStreak } from '../../lib/retry/retry-policy';

export type QueueItemStatus = 'waiting' | 'processing' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

/** Spec §3 upscale request parameters besides the image itself. */
export interface UpscaleParams {
  modelName: string;
  scale: number;
  tileMode: number;
  cacheMode: number;
  alpha: number;
  /** The designer chose "on this device": never sent to the server (upscale-local.worker.ts). */
  onDevice?: boolean;
}

/** Where a result was made: by the upscale service, or on this device (offline, or by choice). */
export type MadeOn = 'server' | 'device';

export interface QueueError {
  /** Server code or HTTP status; 0 for no response. */
  code: string | number;
  status: number;
  message: string;
}

export interface QueueResult {
  url: string;
  filename: string;
  message: string;
  /** Wall time from send to reply. */
  durationMs: number;
  completedAt: number;
  /** Bytes of the result once it is stored on the device. */
  outputSize?: number;
  outputType?: string;
  width?: number;
  height?: number;
  /** Absent on results kept from before on-device upscaling existed: those came from the server. */
  madeOn?: MadeOn;
}

export interface QueueItem {
  id: string;
  /** The signed-in user the item belongs to; nothing of one user runs for another. */
  userKey: string;
  /** Key of the source file in the files store. */
  fileId: string;
  fileName: string;
  fileType: string;
  fileSize: number;
  params: UpscaleParams;
  status: QueueItemStatus;
  /** Upload percentage while processing. */
  progress: number;
  /** Sent as the Idempotency-Key header; kept across a resend of an interrupted request. */
  idempotencyKey: string;
  /** True once any byte of the request left the device: from then on it may have reached the server. */
  bytesSent: boolean;
  /** True once a request with the current key was started: the server may hold a job under it. */
  keySent?: boolean;
  attempts: number;
  /** Failures in a row under the shared retry policy: when the next attempt may start, and since when it has been failing. */
  retry?: RetryStreak;
  seq: number;
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  error?: QueueError;
  result?: QueueResult;
  /** Set while the item is being upscaled on this device (its progress counts tiles, not upload). */
  runningLocally?: boolean;
  /** Whether the result file is kept on the device (for offline viewing and the ZIP). */
  resultStored?: boolean;
  /** The source file's resumable upload, where the server speaks tus: kept so a cut, a reload or a sleep resumes it. */
  upload?: ItemUpload;
}

/** A resumable upload of an item's source file (tus): its URL, and how much the server has. */
export interface ItemUpload {
  url: string;
  /** The URL's last path segment: sent as `image_upload_id` in the upscale call. */
  id: string;
  /** Bytes the server has (its Upload-Offset). */
  offset: number;
  /** The server has every byte: the upscale call may reference it. */
  complete?: boolean;
  /**
   * The call already answered "incomplete" once for this upload though the server had taken every
   * byte: if it says so again the upload starts anew instead of resuming for ever.
   */
  doubted?: boolean;
}

/** A source image the user added, kept on the device until its queue items are gone. */
export interface StoredFile {
  id: string;
  userKey: string;
  name: string;
  /** Stored apart from the Blob: some IndexedDB implementations give a File back as a plain Blob. */
  type: string;
  size: number;
  blob: Blob;
  thumb?: Blob;
  width?: number;
  height?: number;
  addedAt: number;
  /** Handed to the queue: no longer among the images waiting to be started. */
  queued?: boolean;
}

/** An upscaled image kept on the device, keyed by its queue item. */
export interface StoredResult {
  id: string;
  userKey: string;
  blob: Blob;
  type: string;
}

export type PauseReason = 'offline' | 'auth' | 'busy' | null;

export interface QueueSnapshot {
  items: QueueItem[];
  paused: PauseReason;
  inFlight: number;
}

export interface QueueAuth {
  token: string | null;
  /** Absolute base URL of the upscale service. */
  baseUrl: string;
  owner: string;
  /** Absolute URL of the server's tus endpoint (config.json `uploads.tus`); absent: files go up in the multipart call. */
  tusUrl?: string;
}

export interface EnqueueEntry {
  fileId: string;
  name: string;
  type: string;
  size: number;
  /** Passed as a Blob (structured clone), never a transferred buffer: a retry needs it again. */
  blob: Blob;
}

/** At most this many upscale requests are in flight at once (a sliding window). */
export const MAX_IN_FLIGHT = 3;

export const ACTIVE_STATUSES: readonly QueueItemStatus[] = ['waiting', 'processing'];

export interface UpscaleQueueApi {
  configure(auth: QueueAuth): Promise<void>;
  enqueue(entries: EnqueueEntry[], params: UpscaleParams): Promise<string[]>;
  cancel(id: string): Promise<void>;
  cancelAll(): Promise<void>;
  retry(id: string): Promise<void>;
  retryAllFailed(): Promise<void>;
  remove(id: string): Promise<void>;
  clearFinished(): Promise<void>;
  setOnline(online: boolean): Promise<void>;
  snapshot(): Promise<QueueSnapshot>;
  subscribe(listener: (snapshot: QueueSnapshot) => void): Promise<void>;
  /** Drops this user's queue (logout on a shared tablet). */
  wipe(): Promise<void>;
}
