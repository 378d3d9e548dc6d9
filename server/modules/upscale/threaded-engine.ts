// An UpscaleEnginePort whose engine runs on a worker thread (see engine-thread-protocol.ts). The
// thread starts on first use; if it dies, every job waiting on it fails as an engine error and the
// next job starts a new one. A thread stopped mid-job (closed, or crashed) never deletes its
// feature cache's temporary file: once it has exited, its files are removed here.
import { Worker } from 'node:worker_threads';
import { listModelFiles } from '../../upscale/model-list.js';
import { UpscaleError } from '../../upscale/errors.js';
import { featureCacheDir, removeThreadFiles } from '../../upscale/feature-cache-dir.js';
import type { EngineThreadOptions, FromEngine, ToEngine } from './engine-thread-protocol.js';
import type {
  EngineJobOptions,
  EngineJobResult,
  EngineModel,
  UpscaleEnginePort,
} from './upscale-engine-port.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (fraction: number) => void;
}

const ENTRY = new URL('./engine-thread-entry.mjs', import.meta.url);
/** How long close() lets a running tile finish before it terminates the thread regardless. */
const CLOSE_GRACE_MS = 120_000;

export class ThreadedEngine implements UpscaleEnginePort {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** What the thread's engine is built with (workerData), readable to check the settings reach it. */
  readonly options: Readonly<EngineThreadOptions & { featureCacheDir: string }>;

  constructor(options: EngineThreadOptions) {
    this.options = { ...options, featureCacheDir: options.featureCacheDir ?? featureCacheDir() };
  }

  /**
   * The models folder's list, read here: it needs no engine, so the first visit to the image page
   * does not wait for the thread to start (about a second here, more on a busy machine).
   */
  listModels(): Promise<EngineModel[]> {
    return listModelFiles(this.options.modelsDir);
  }

  upscale(input: Buffer, opts: EngineJobOptions): Promise<EngineJobResult> {
    const { signal, onProgress, ...params } = opts;
    if (signal?.aborted) return Promise.reject(new UpscaleError('cancelled', 'upscale cancelled'));
    const id = this.nextId++;
    // A copy of our own to transfer: the caller's Buffer may share a pool or be used again.
    const copy = new Uint8Array(input);
    const onAbort = () => this.worker?.postMessage({ type: 'abort', id } satisfies ToEngine);
    signal?.addEventListener('abort', onAbort, { once: true });
    return this.call<EngineJobResult>(
      { type: 'upscale', id, input: copy, params },
      [copy.buffer],
      onProgress,
    ).finally(() => signal?.removeEventListener('abort', onAbort));
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) {
      const thread = worker.threadId;
      // The thread cancels its jobs at their next tile and exits (engine-thread-main.ts): never
      // terminated mid-tile, which would abort this process. terminate() only past a long grace.
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ type: 'close' } satisfies ToEngine);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), CLOSE_GRACE_MS);
      });
      if ((await Promise.race([exited, late])) === 'late') await worker.terminate();
      clearTimeout(timer);
      // Before the process may exit: the exit handler's removal would not be awaited.
      await removeThreadFiles(this.options.featureCacheDir, thread).catch(() => undefined);
    }
    this.failAll(new UpscaleError('cancelled', 'upscale engine closed'));
  }

  private call<T>(
    message: Exclude<ToEngine, { type: 'close' }>,
    transfer: ArrayBuffer[] = [],
    onProgress?: (fraction: number) => void,
  ): Promise<T> {
    const worker = this.ensureWorker();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(message.id, { resolve: resolve as (value: unknown) => void, reject, onProgress });
      worker.postMessage(message, transfer);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(ENTRY, { workerData: this.options });
    worker.on('message', (message: FromEngine) => this.onMessage(message));
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(new UpscaleError('engine_error', `upscale engine thread stopped: ${reason}`));
    };
    worker.on('error', (error) => lost(error.message));
    const thread = worker.threadId;
    worker.on('exit', (code) => {
      lost(`exit code ${code}`);
      void removeThreadFiles(this.options.featureCacheDir, thread).catch(() => undefined);
    });
    // An idle engine thread must not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private onMessage(message: FromEngine): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    switch (message.type) {
      case 'progress':
        pending.onProgress?.(message.fraction);
        return;
      case 'result': {
        this.pending.delete(message.id);
        const { data, ...rest } = message.result;
        pending.resolve({ ...rest, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) });
        return;
      }
      case 'error':
        this.pending.delete(message.id);
        pending.reject(new UpscaleError(message.error.code, message.error.message));
        return;
    }
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
