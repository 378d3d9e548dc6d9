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

/** Until a job has finished, the duration guessed for one. */
export const GUESSED_JOB_MS = 5_000;
/** Finished jobs whose durations the estimate looks at. */
const SAMPLES = 9;

export class JobQueue {
  private readonly free: number[];
  private readonly waiting: Waiting[] = [];
  /** When each running job started, by slot. */
  private readonly startedAt = new Map<number, number>();
  /** Durations of the last jobs that finished successfully, oldest first. */
  private readonly durations: number[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    private readonly now: () => number = Date.now,
  ) {
    this.free = Array.from({ length: concurrency }, (_, i) => i);
  }

  get running(): number {
    return this.concurrency - this.free.length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /**
   * The expected length of one job: the median of the last finished ones. A median, because the
   * first job of a model also loads it, and one such outlier must not inflate the next estimates;
   * the guess counts only until a job has finished.
   */
  expectedJobMs(): number {
    if (this.durations.length === 0) return GUESSED_JOB_MS;
    const sorted = [...this.durations].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  }

  /**
   * Seconds until the work in hand is likely done: what is left of each running job plus one
   * expected job per waiting one, shared among the slots.
   */
  retryAfterSeconds(): number {
    const expected = this.expectedJobMs();
    const t = this.now();
    let workMs = this.waiting.length * expected;
    // A job past the expected length is taken to be about to finish.
    for (const began of this.startedAt.values()) workMs += Math.max(0, expected - (t - began));
    return Math.max(1, Math.ceil(workMs / this.concurrency / 1000));
  }

  /** Throws 503 queue_full when the job could neither run nor wait now. */
  assertCapacity(): void {
    if (this.free.length === 0 && this.waiting.length >= this.maxWaiting) throw this.full();
  }

  /** The 503 queue_full refusal with the current retry estimate. */
  full(): UpscaleHttpError {
    const seconds = this.retryAfterSeconds();
    return new UpscaleHttpError(503, 'queue_full', { seconds }, { retryAfterSeconds: seconds });
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
        const began = this.now();
        this.startedAt.set(slot, began);
        // A job that throws synchronously must still give its slot back.
        Promise.resolve()
          .then(() => job(signal, slot))
          .then((value) => {
            // Failed and cancelled jobs stop early: their durations say nothing of a job's length.
            this.record(this.now() - began);
            resolve(value);
          }, reject)
          .finally(() => this.release(slot));
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

  private record(ms: number): void {
    this.durations.push(ms);
    if (this.durations.length > SAMPLES) this.durations.shift();
  }

  private release(slot: number): void {
    this.startedAt.delete(slot);
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
