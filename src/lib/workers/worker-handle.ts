// A lazily started comlink worker: created on first use, terminated after a quiet spell unless
// told to stay (the upscale queue stays while it has work).
import * as Comlink from 'comlink';

export interface WorkerHandle<T> {
  get(): Comlink.Remote<T>;
  /** Marks activity; the idle timer restarts. */
  touch(): void;
  stop(): void;
}

export function createWorkerHandle<T>(spawn: () => Worker, idleMs: number | null): WorkerHandle<T> {
  let worker: Worker | null = null;
  let remote: Comlink.Remote<T> | null = null;
  let idle: ReturnType<typeof setTimeout> | null = null;

  const stop = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    remote?.[Comlink.releaseProxy]();
    worker?.terminate();
    worker = null;
    remote = null;
  };
  const touch = () => {
    if (idleMs === null) return;
    if (idle) clearTimeout(idle);
    idle = setTimeout(stop, idleMs);
  };
  return {
    get() {
      if (!remote) {
        worker = spawn();
        remote = Comlink.wrap<T>(worker);
      }
      touch();
      return remote;
    },
    touch,
    stop,
  };
}
