// A bounded queue in front of the engines: `concurrency` jobs run at once (each on its own slot,
// one engine per slot), at most `maxWaiting` wait behind them, and anything beyond is refused at
// once with a retry hint. A job whose signal aborts while waiting leaves the queue and never
// runs; a running job gets the signal and stops between tiles.
import { UpscaleError } from '../../upscale/errors.js';
import { UpscaleHttpError } from './upscale-http-error.js';

export type Job<T> = (signal: AbortSignal, slot: number) => Promise<T>;

interface Waiting {
  start: (slot: number) => void;
  signal: AbortSignal;
}

export class JobQueue {
  private readonly free: number[];
  private readonly waiting: Waiting[] = [];
  /** Moving average of job durations, for Retry-After; a guess until jobs have run. */
  private averageMs = 5_000;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    this.free = Array.from({ length: concurrency }, (_, i) => i);
  }

  get running(): number {
    return this.concurrency - this.free.length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Seconds until a place is likely to free up. */
  retryAfterSeconds(): number {
    const jobsAhead = this.waiting.length + 1;
    return Math.max(1, Math.ceil((this.averageMs * jobsAhead) / this.concurrency / 1000));
  }

  /** Throws 503 queue_full when the job could neither run nor wait now. */
  assertCapacity(): void {
    if (this.free.length === 0 && this.waiting.length >= this.maxWaiting) {
      const seconds = this.retryAfterSeconds();
      throw new UpscaleHttpError(503, 'queue_full', { seconds }, { retryAfterSeconds: seconds });
    }
  }

  run<T>(job: Job<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(cancelled());
    try {
      this.assertCapacity();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise<T>((resolve, reject) => {
      const start = (slot: number): void => {
        signal.removeEventListener('abort', onAbort);
        const began = Date.now();
        // A job that throws synchronously must still give its slot back.
        Promise.resolve()
          .then(() => job(signal, slot))
          .then(resolve, reject)
          .finally(() => {
            this.averageMs = this.averageMs * 0.7 + (Date.now() - began) * 0.3;
            this.release(slot);
          });
      };
      const entry: Waiting = { start, signal };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(cancelled());
      };
      const slot = this.free.shift();
      if (slot !== undefined) return start(slot);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(slot: number): void {
    // Skip waiters that were cancelled but not yet removed (abort listeners run synchronously,
    // so this is only a guard).
    let next = this.waiting.shift();
    while (next && next.signal.aborted) next = this.waiting.shift();
    if (next) next.start(slot);
    else this.free.push(slot);
  }
}

function cancelled(): UpscaleError {
  return new UpscaleError('cancelled', 'upscale cancelled');
}
