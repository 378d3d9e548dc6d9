// Main-thread side of zip.worker.ts. The worker starts on the first build and stops after a quiet
// spell; aborting a build terminates it at once (a half-read Blob cannot be interrupted any other
// way). A terminated worker never answers, so every pending call is settled here, not left hanging.
import * as Comlink from 'comlink';
import type {
  LookbookAuth,
  LookbookEntry,
  LookbookProgress,
  ZipProgress,
  ZipResultItem,
  ZipWorkerApi,
} from '../../workers/zip.worker';

export type { LookbookAuth, LookbookEntry, LookbookProgress, ZipProgress, ZipResultItem };

/** Shown as "ZIP generation failed" (spec §8); the cause keeps the worker's own message. */
export class ZipGenerationError extends Error {
  override readonly name = 'ZipGenerationError';
  readonly i18nKey = 'imageProcessing.zip.failed';

  constructor(cause?: unknown) {
    super('ZIP generation failed', { cause });
  }
}

export interface ZipBuildOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ZipProgress) => void;
}

/** The part of a Worker the bridge uses; tests hand in a MessageChannel port instead. */
export interface ZipWorkerHandle extends Comlink.Endpoint {
  terminate(): void;
}

export interface LookbookBuildOptions {
  signal?: AbortSignal;
  onProgress?: (progress: LookbookProgress) => void;
}

export interface ZipBridge {
  build(items: readonly ZipResultItem[], options?: ZipBuildOptions): Promise<Blob>;
  buildLookbook(entries: readonly LookbookEntry[], auth: LookbookAuth, options?: LookbookBuildOptions): Promise<Blob>;
  /** Stops the worker now; builds in flight reject with an AbortError. */
  terminate(): void;
  readonly running: boolean;
}

function abortError(signal?: AbortSignal): unknown {
  const reason: unknown = signal?.reason;
  return reason instanceof Error && reason.name === 'AbortError'
    ? reason
    : new DOMException('cancelled', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function spawnZipWorker(): ZipWorkerHandle {
  return new Worker(new URL('../../workers/zip.worker.ts', import.meta.url), { type: 'module', name: 'zip' });
}

export function createZipBridge(spawn: () => ZipWorkerHandle = spawnZipWorker, idleMs = 10_000): ZipBridge {
  let worker: ZipWorkerHandle | null = null;
  let remote: Comlink.Remote<ZipWorkerApi> | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Set<(error: unknown) => void>();

  const onWorkerError = () => stop(new ZipGenerationError(new Error('zip worker crashed')));

  function stop(reason: unknown): void {
    clearTimeout(idleTimer);
    if (worker) {
      worker.removeEventListener('error', onWorkerError);
      worker.terminate();
    }
    worker = null;
    remote = null;
    for (const reject of [...pending]) reject(reason);
    pending.clear();
  }

  function ensureStarted(): Comlink.Remote<ZipWorkerApi> {
    clearTimeout(idleTimer);
    if (!remote) {
      worker = spawn();
      worker.addEventListener('error', onWorkerError);
      remote = Comlink.wrap<ZipWorkerApi>(worker);
    }
    return remote;
  }

  function scheduleIdleStop(): void {
    clearTimeout(idleTimer);
    if (pending.size === 0 && worker) idleTimer = setTimeout(() => stop(new ZipGenerationError()), idleMs);
  }

  /** One call into the worker, settled here whether the worker answers, fails, is aborted or is stopped. */
  function run(signal: AbortSignal | undefined, invoke: (api: Comlink.Remote<ZipWorkerApi>) => Promise<Blob>): Promise<Blob> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const api = ensureStarted();
    return new Promise<Blob>((resolve, reject) => {
      let settled = false;
      const settle = (action: () => void) => {
        if (settled) return;
        settled = true;
        pending.delete(fail);
        signal?.removeEventListener('abort', onAbort);
        action();
        scheduleIdleStop();
      };
      const fail = (error: unknown) => settle(() => reject(error));
      const onAbort = () => {
        fail(abortError(signal));
        // Other builds sharing the worker end too; they are told they were cancelled.
        stop(abortError(signal));
      };
      pending.add(fail);
      signal?.addEventListener('abort', onAbort, { once: true });
      invoke(api).then(
        (blob) => settle(() => resolve(blob)),
        (error: unknown) => fail(isAbortError(error) ? error : new ZipGenerationError(error)),
      );
    });
  }

  function build(items: readonly ZipResultItem[], options: ZipBuildOptions = {}): Promise<Blob> {
    const { signal, onProgress } = options;
    return run(signal, (api) => api.build([...items], onProgress ? Comlink.proxy(onProgress) : undefined));
  }

  function buildLookbook(entries: readonly LookbookEntry[], auth: LookbookAuth, options: LookbookBuildOptions = {}): Promise<Blob> {
    const { signal, onProgress } = options;
    return run(signal, (api) => api.buildLookbook([...entries], auth, onProgress ? Comlink.proxy(onProgress) : undefined));
  }

  return {
    build,
    buildLookbook,
    terminate: () => stop(new DOMException('cancelled', 'AbortError')),
    get running() {
      return worker !== null;
    },
  };
}

let shared: ZipBridge | null = null;

/** Builds the batch ZIP off the main thread; rejects with ZipGenerationError or an AbortError. */
export function buildZipInWorker(items: readonly ZipResultItem[], options?: ZipBuildOptions): Promise<Blob> {
  shared ??= createZipBridge();
  return shared.build(items, options);
}

/** Builds a collection's lookbook off the main thread; rejects with ZipGenerationError or an AbortError. */
export function buildLookbookInWorker(
  entries: readonly LookbookEntry[],
  auth: LookbookAuth,
  options?: LookbookBuildOptions,
): Promise<Blob> {
  shared ??= createZipBridge();
  return shared.buildLookbook(entries, auth, options);
}
