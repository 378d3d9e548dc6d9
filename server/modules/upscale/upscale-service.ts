// One upscale end to end: admit the image, check the model, wait for a queue slot, run the
// engine of that slot, store the result and sign its link. Shared by the single and batch calls.
import { UpscaleError } from '../../upscale/errors.js';
import { freeNow } from '../../upscale/free-now.js';
import { admitImage } from './image-admission.js';
import { EngineSlotQueue } from './engine-slot-queue.js';
import { assertListedModel, toModelViews, type ModelView } from './model-catalogue.js';
import { createResultStore, resultFilename, type ResultStore } from './result-store.js';
import { UploadBudget } from '../../http/upload-budget.js';
import { createDiskBlobStore } from '../../storage/disk-blob-store.js';
import type { SignedLinks } from '../../storage/signed-links.js';
import type { EngineFactory, EngineModel, UpscaleEnginePort } from './upscale-engine-port.js';
import { UpscaleHttpError } from './upscale-http-error.js';
import type { UpscaleParams } from './upscale-params.js';

export interface UpscaleServiceOptions {
  engines: EngineFactory;
  concurrency: number;
  maxQueue: number;
  maxPixels: number;
  /** upload bytes held in memory at once; beyond it a 503 */
  maxInflightBytes: number;
  resultTtlSeconds: number;
  dataDir: string;
  /** Where results are kept; by default on disk under dataDir. */
  store?: ResultStore;
  /** Signs a result's link for RESULT_TTL_SECONDS, the lifetime the sweep keeps it. */
  resultLinks: SignedLinks;
  now: () => Date;
  /** The upload budget's refusal; by default this process's queue-full answer with its estimate. */
  uploadsBusy?: () => UpscaleHttpError;
}

export interface UpscaleOutcome {
  /** the stored result's id (its folder under upscale-results, on disk or in the bucket) */
  resultId: string;
  url: string;
  filename: string;
  width: number;
  height: number;
  scale: number;
  durationMs: number;
}

export interface JobHooks {
  signal: AbortSignal;
  /** The engine's progress, at most once per percent (rounded down). */
  onProgress?: (fraction: number) => void;
  /** Called once the job holds an engine (it has stopped waiting). */
  onStart?: () => void;
  /**
   * Awaited after the result is staged and before it is published under its id: what is saved
   * here (a replay record) is stored whenever the result is, even across a crash.
   */
  beforePublish?: (outcome: UpscaleOutcome) => Promise<void>;
}

export class UpscaleService {
  readonly queue: EngineSlotQueue;
  readonly uploads: UploadBudget;
  readonly store: ResultStore;
  private readonly engines: UpscaleEnginePort[];
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly o: UpscaleServiceOptions) {
    this.queue = new EngineSlotQueue(o.concurrency, o.maxQueue);
    // Held bytes free up as jobs finish: the queue's estimate is the retry hint.
    this.uploads = new UploadBudget(o.maxInflightBytes, o.uploadsBusy ?? (() => this.queue.full()));
    this.store = o.store ?? createResultStore(createDiskBlobStore(o.dataDir));
    this.engines = Array.from({ length: o.concurrency }, (_, slot) => o.engines(slot));
  }

  /** The data folder (replay records live there). */
  get dataDir(): string {
    return this.o.dataDir;
  }

  async listModels(): Promise<ModelView[]> {
    try {
      return toModelViews(await this.engines[0]!.listModels());
    } catch (error) {
      // No weights on disk yet (models:fetch not run): a clear 503 rather than a 500.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new UpscaleHttpError(503, 'models_unavailable');
      throw error;
    }
  }

  /** The first engine's models as it lists them (a worker reports them to the API replicas). */
  listEngineModels(): Promise<EngineModel[]> {
    return this.engines[0]!.listModels();
  }

  /** Refuses an unknown model before any upload is processed. */
  async assertModel(name: string): Promise<void> {
    assertListedModel(await this.listModels(), name);
  }

  async upscale(
    input: { filename: string; data: Buffer },
    params: UpscaleParams,
    hooks: JobHooks,
  ): Promise<UpscaleOutcome> {
    await admitImage(input.data, this.o.maxPixels);
    const result = await this.queue.run(async (signal, slot) => {
      hooks.onStart?.();
      return this.engines[slot]!.upscale(input.data, { ...params, signal, onProgress: percentSteps(hooks.onProgress) });
    }, hooks.signal);
    // Freed once published (an S3 store holds the staged bytes until then), not left to the
    // collector: a 4 MP 4x result (179 MB) was still held through the next job, which then peaked
    // at 1149 MiB instead of 948 (AMD EPYC family 25, 2 cores).
    try {
      // A client gone during encoding gets no file written for it.
      if (hooks.signal.aborted) throw new UpscaleError('cancelled', 'upscale cancelled');
      const staged = await this.store.stage(
        resultFilename(input.filename, params.modelName, result.format),
        result.data,
      );
      const outcome: UpscaleOutcome = {
        resultId: staged.id,
        url: this.o.resultLinks.sign(staged.id, staged.filename, this.o.now().getTime()),
        filename: staged.filename,
        width: result.width,
        height: result.height,
        scale: result.scale,
        durationMs: result.durationMs,
      };
      try {
        await hooks.beforePublish?.(outcome);
        await staged.publish();
      } catch (error) {
        await staged.discard().catch(() => undefined);
        throw error;
      }
      return outcome;
    } finally {
      freeNow(result.data);
    }
  }

  sweep(): Promise<number> {
    return this.store.sweep(this.o.resultTtlSeconds, this.o.now().getTime());
  }

  startSweeper(log: (error: unknown) => void): void {
    const everyMs = Math.min(this.o.resultTtlSeconds, 600) * 1000;
    this.sweeper = setInterval(() => void this.sweep().catch(log), everyMs);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.all(this.engines.map((e) => e.close()));
    this.store.close();
  }
}

/** Passes on a fraction only when it reaches the next whole percent (a batch event or a bus message each). */
function percentSteps(report: ((fraction: number) => void) | undefined): ((fraction: number) => void) | undefined {
  if (!report) return undefined;
  let last = -1;
  return (fraction) => {
    const rounded = Math.floor(fraction * 100) / 100;
    if (rounded > last) {
      last = rounded;
      report(rounded);
    }
  };
}
