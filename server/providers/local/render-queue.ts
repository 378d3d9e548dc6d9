// In-process background work, one task at a time: the built-in engine renders videos on the
// server's own CPU, so a second render waits instead of halving the speed of both. Tasks have
// ids the job runner polls; finished results are kept for a while, then forgotten (a restarted
// server knows none of them, and the runner starts the job again).
import { randomUUID } from 'node:crypto';
import { cancelledError } from './cancellation.js';
import { ProviderError } from '../capabilities.js';
import { LOCAL_PROVIDER } from './model-name.js';

export type TaskState<R> =
  | { state: 'queued' | 'processing' }
  | { state: 'succeeded'; result: R }
  | { state: 'failed'; error: ProviderError };

interface Task<J, R> {
  id: string;
  job: J;
  controller: AbortController;
  state: TaskState<R>;
  detach?: () => void;
}

export interface SerialQueueOptions {
  /** Tasks waiting or running at most; more are refused as rate_limited. */
  maxPending?: number;
  /** How long a finished task's result stays available. */
  resultTtlMs?: number;
  /** Prefix of the task ids ("local-video-..."). */
  idPrefix?: string;
}

export class SerialQueue<J, R> {
  private readonly tasks = new Map<string, Task<J, R>>();
  private readonly waiting: Task<J, R>[] = [];
  private running: Task<J, R> | undefined;
  private readonly maxPending: number;
  private readonly resultTtlMs: number;
  private readonly idPrefix: string;

  constructor(
    private readonly work: (job: J, signal: AbortSignal) => Promise<R>,
    options: SerialQueueOptions = {},
  ) {
    this.maxPending = options.maxPending ?? 20;
    this.resultTtlMs = options.resultTtlMs ?? 30 * 60_000;
    this.idPrefix = options.idPrefix ?? 'local-';
  }

  /** Tasks waiting or running. */
  get pending(): number {
    return this.waiting.length + (this.running ? 1 : 0);
  }

  /** Queues a job; `signal` cancels it (waiting: dropped; running: its work is aborted). */
  submit(job: J, signal?: AbortSignal): string {
    if (signal?.aborted) throw cancelledError();
    if (this.pending >= this.maxPending) {
      throw new ProviderError('rate_limited', `the built-in engine already has ${this.pending} videos to render`, {
        provider: LOCAL_PROVIDER,
        retryAfterMs: 30_000,
      });
    }
    const task: Task<J, R> = { id: `${this.idPrefix}${randomUUID()}`, job, controller: new AbortController(), state: { state: 'queued' } };
    if (signal) {
      const onAbort = () => this.cancel(task.id);
      signal.addEventListener('abort', onAbort, { once: true });
      task.detach = () => signal.removeEventListener('abort', onAbort);
    }
    this.tasks.set(task.id, task);
    this.waiting.push(task);
    queueMicrotask(() => this.pump());
    return task.id;
  }

  state(id: string): TaskState<R> | undefined {
    return this.tasks.get(id)?.state;
  }

  cancel(id: string): void {
    const task = this.tasks.get(id);
    if (!task) return;
    if (task.state.state === 'queued') {
      this.waiting.splice(this.waiting.indexOf(task), 1);
      this.finish(task, { state: 'failed', error: cancelledError() });
    } else if (task.state.state === 'processing') {
      task.controller.abort();
    }
  }

  private finish(task: Task<J, R>, state: TaskState<R>): void {
    task.state = state;
    task.detach?.();
    task.detach = undefined;
    setTimeout(() => this.tasks.delete(task.id), this.resultTtlMs).unref();
  }

  private pump(): void {
    if (this.running) return;
    const task = this.waiting.shift();
    if (!task) return;
    this.running = task;
    task.state = { state: 'processing' };
    void this.work(task.job, task.controller.signal)
      .then(
        (result) => this.finish(task, { state: 'succeeded', result }),
        (e: unknown) => {
          const error =
            task.controller.signal.aborted
              ? cancelledError()
              : e instanceof ProviderError
                ? e
                : new ProviderError('unavailable', e instanceof Error ? e.message : String(e), { provider: LOCAL_PROVIDER, cause: e });
          this.finish(task, { state: 'failed', error });
        },
      )
      .finally(() => {
        this.running = undefined;
        this.pump();
      });
  }
}
