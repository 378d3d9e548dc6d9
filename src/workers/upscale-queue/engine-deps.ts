// What the queue engine needs from outside: the store, the sender, the service's probe and, where
// the platform has them, a cancel call, a result download and an on-device upscaler. The worker
// wires real I/O; unit tests wire fakes and a hand-driven clock.
import type { QueueAuth, QueueSnapshot } from './protocol';
import type { QueueStore } from './queue-store';
import type { LocalUpscaler, Sender, Uploader } from './send-types';

export interface QueueEngineDeps {
  store: QueueStore;
  send: Sender;
  /** Resumable uploads (tus), used where the configuration names a tus endpoint. */
  upload?: Uploader;
  /** Is the upscale service reachable, and does it replay a resend with the same key? (a cheap GET) */
  probe(auth: QueueAuth): Promise<ProbeResult>;
  /**
   * Tells the service to stop the job under an idempotency key now (the user cancelled it); without
   * it the service keeps a keyed job alive for a resend grace. Best effort: failures are ignored.
   */
  cancelOnServer?(idempotencyKey: string, auth: QueueAuth): Promise<void>;
  /** Downloads a finished result so it stays on the device; optional. */
  fetchResult?(url: string, auth: QueueAuth): Promise<{ blob: Blob; width?: number; height?: number }>;
  /** Upscales on this device: while the service cannot be reached, and for items sent "on this device". */
  local?: LocalUpscaler;
  onSnapshot(snapshot: QueueSnapshot): void;
  now?(): number;
  newId?(): string;
  /** Timer used for probe back-off and item retry delays; tests replace it. */
  setTimer?(fn: () => void, ms: number): () => void;
  /** Jitter source of the retry delays; tests make it fixed. */
  random?(): number;
  /** Request limit (spec §4: three in parallel). */
  maxInFlight?: number;
}

export interface ProbeResult {
  reachable: boolean;
  /** The server answers a repeated Idempotency-Key from its first attempt instead of running it again. */
  resendSafe: boolean;
}
