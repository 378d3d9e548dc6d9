// A bounded queue in front of this process's engines: `concurrency` jobs run at once (each on its
// own slot, one engine per slot), at most `maxWaiting` wait behind them, and anything beyond is
// refused at once with a retry hint. A job whose signal aborts while waiting leaves the queue and
// never runs; a running job gets the signal and stops between tiles. (The job engine's queue of
// persisted jobs is server/jobs/job-queue.ts; this one holds only in-memory engine turns.)
import { UpscaleError } from '../../upscale/errors.js';
import type { UpscaleHttpError } from './upscale-http-error.js';
import { expectedJobMs, queueFull, retryAfterSeconds } from './wait-estimate.js';

export type Job<T> = (signal: AbortSignal, slot: number) => Promise<T>;

interface Waiting {
  start: (slot: number) => void;
  signal: AbortSignal;
}

/** Finished jobs whose durations the estimate looks at. */
const SAMPLES = 9;

export class EngineSlotQueue {
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

  /** The expected length of one job (wait-estimate.ts). */
  expectedJobMs(): number {
    return expectedJobMs(this.durations);
  }

  /** Seconds until the work in hand is likely done, over this process's slots (wait-estimate.ts). */
  retryAfterSeconds(): number {
    return retryAfterSeconds({
      waitingJobs: this.waiting.length,
      runningSince: this.startedAt.values(),
      recentDurationsMs: this.durations,
      slots: this.concurrency,
      nowMs: this.now(),
    });
  }

  /** Throws 503 queue_full when the job could neither run nor wait now. */
  assertCapacity(): void {
    if (this.free.length === 0 && this.waiting.length >= this.maxWaiting) throw this.full();
  }

  /** The 503 queue_full refusal with the current retry estimate. */
  full(): UpscaleHttpError {
    return queueFull(this.retryAfterSeconds());
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
