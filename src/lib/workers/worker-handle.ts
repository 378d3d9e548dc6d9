// A lazily started comlink worker: created on first use, terminated after a quiet spell unless
// told to stay (the upscale queue stays while it has work). A worker that reports an uncaught
// error is terminated and forgotten, and calls still waiting on it reject instead of hanging (a
// dead worker never answers); the next get() starts a fresh one.
import * as Comlink from 'comlink';

/** The part of a Worker the handle uses; tests hand in a MessagePort-backed stand-in. */
export type SpawnedWorker = Comlink.Endpoint & Pick<Worker, 'terminate'>;

export class WorkerGoneError extends Error {
  override readonly name = 'WorkerGoneError';
  constructor(
    message: string,
    /** True when the worker failed on its own; false when it was stopped on purpose. */
    readonly crashed: boolean,
  ) {
    super(message);
  }
}

export interface WorkerHandleOptions {
  /** Called after a worker failed and was terminated; the owner may start it again. */
  onCrash?(error: WorkerGoneError): void;
}

export interface WorkerHandle<T> {
  get(): Comlink.Remote<T>;
  /** Marks activity; the idle timer restarts. */
  touch(): void;
  stop(): void;
}

export function createWorkerHandle<T>(
  spawn: () => SpawnedWorker,
  idleMs: number | null,
  options: WorkerHandleOptions = {},
): WorkerHandle<T> {
  let worker: SpawnedWorker | null = null;
  let raw: Comlink.Remote<T> | null = null;
  let remote: Comlink.Remote<T> | null = null;
  let idle: ReturnType<typeof setTimeout> | null = null;
  let settlePending: ((error: WorkerGoneError) => void) | null = null;

  const teardown = (error: WorkerGoneError) => {
    if (idle) clearTimeout(idle);
    idle = null;
    settlePending?.(error);
    settlePending = null;
    raw?.[Comlink.releaseProxy]();
    worker?.terminate();
    worker = null;
    raw = null;
    remote = null;
  };
  const stop = () => teardown(new WorkerGoneError('worker stopped', false));
  const touch = () => {
    if (idleMs === null) return;
    if (idle) clearTimeout(idle);
    idle = setTimeout(stop, idleMs);
  };
  return {
    get() {
      if (!remote) {
        const spawned = spawn();
        const gone = new Promise<never>((_, reject) => {
          settlePending = reject;
        });
        gone.catch(() => {}); // only calls in flight care
        spawned.addEventListener('error', (event) => {
          if (worker !== spawned) return;
          // Handled here: the page must not show it as its own uncaught error.
          event.preventDefault();
          const { message } = event as Partial<ErrorEvent>;
          const error = new WorkerGoneError(message || 'worker failed', true);
          teardown(error);
          options.onCrash?.(error);
        });
        worker = spawned;
        raw = Comlink.wrap<T>(spawned);
        remote = settleWhenGone(raw, gone);
      }
      touch();
      return remote;
    },
    touch,
    stop,
  };
}

/** Every method call on the remote also rejects when the worker is gone. */
function settleWhenGone<T>(raw: Comlink.Remote<T>, gone: Promise<never>): Comlink.Remote<T> {
  return new Proxy(raw, {
    get(target, prop, receiver) {
      const member: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop === 'symbol' || typeof member !== 'function') return member;
      const call = member as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => Promise.race([call(...args), gone]);
    },
  });
}
