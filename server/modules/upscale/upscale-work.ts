// How upscale work is done, behind one interface the routes use without asking which mode they are
// in: on this process's own engines (in-process-upscale.ts, the embedded default) or through the job
// queue for the team's workers (team-upscale.ts, TEAM_MODE). upscale-group.ts chooses one when the
// group starts, as server/jobs/job-engine.ts chooses the job engine.
import type { BatchItemEvents } from './batch-event-stream.js';
import type { CancelOutcome, IdempotentAnswer } from './idempotent-results.js';
import type { ModelView } from './model-catalogue.js';
import type { ErrorContext } from './upscale-http-error.js';
import type { UpscaleParams } from './upscale-params.js';
import type { UploadedFile } from './upscale-upload.js';

/** POST /upscale/single's image, with the resend key the client sent (if any). */
export interface SingleUpscale {
  file: { filename: string; data: Buffer };
  params: UpscaleParams;
  userId: number;
  key: string | undefined;
  /** Fires when the client goes away. */
  signal: AbortSignal;
}

/** POST /upscale/batch's images, and the stream that tells the client how each one goes. */
export interface BatchUpscale {
  userId: number;
  files: UploadedFile[];
  params: UpscaleParams;
  ctx: ErrorContext;
  events: BatchItemEvents;
  /** Told how many upload bytes an item let go of, once its image is no longer held in memory. */
  onItemDone: (bytes: number) => void;
}

export interface UpscaleWork {
  listModels(): Promise<ModelView[]>;
  /** Refuses an unknown model (400 unknown_model) before any image is processed. */
  assertModel(name: string): Promise<void>;
  /** Throws 503 queue_full when one more request has no place to wait. */
  assertCapacity(): Promise<void>;
  /** Whether a request with this key would join or replay the user's earlier job (it needs no place of its own). */
  joinsJob(key: string | undefined, userId: number): Promise<boolean>;
  /** One image: run, or joined to the unfinished job of its key, or replayed from a finished one. */
  single(request: SingleUpscale): Promise<IdempotentAnswer>;
  /** The owner's Cancel of a keyed single upscale. */
  cancelKey(key: string, userId: number): Promise<CancelOutcome>;
  /** Runs a batch's images, telling `events` of each; returns when every image has ended. */
  runBatch(batch: BatchUpscale): Promise<void>;
}
