// The upscale job of team mode, as the job queue (pg-boss) runs it on a worker process: read the
// stored input, run this process's engines (UpscaleService: UPSCALE_CONCURRENCY slots of
// UPSCALE_THREADS), store the result in the shared result store, write the replay record of a
// keyed request before the result is published (the order the in-process path keeps), mark the row
// and tell the replica holding the request over the progress bus. Also the worker's heartbeat
// (slots and models, which the API replicas read) and the sweep of inputs a crash left behind.
import type { FastifyBaseLogger } from 'fastify';
import type { JobHandler } from '../../jobs/job-handler.js';
import { databaseOutage } from '../../jobs/retryable-error.js';
import type { DurableReplays } from './durable-replays.js';
import { replayTtlMs } from './idempotent-results.js';
import type { InputStore } from './input-store.js';
import type { UpscaleJobTable, StoredFailure } from './team-jobs.js';
import { ACTIVE_STATUSES } from './team-jobs.js';
import { toUpscaleHttpError, type ErrorContext } from './upscale-http-error.js';
import type { UpscaleParams } from './upscale-params.js';
import type { UpscaleOutcome, UpscaleService } from './upscale-service.js';

/** A single upscale (a person waits for it) and one image of a batch. */
export const UPSCALE_KIND = 'upscale';
export const UPSCALE_BATCH_KIND = 'upscale-batch';
/** Their lane: one pg-boss queue, UPSCALE_CONCURRENCY at once per worker process. */
export const UPSCALE_LANE = 'upscale';
/**
 * Longest one image may take (a 4x model on a large scan with one thread). pg-boss notices a
 * worker that died mid-job only when the job's expiry (this plus the engine's grace) has passed.
 */
export const UPSCALE_JOB_TIMEOUT_MS = 15 * 60_000;
const HEARTBEAT_MS = 10_000;
/** Inputs older than this with no unfinished job are leftovers of a crash. */
const INPUT_SWEEP_AGE_MS = 3_600_000;
/** Finished rows are kept this long (the Retry-After estimate reads recent ones). */
const ROW_KEEP_MS = 24 * 3_600_000;

export const upscaleTopic = (id: number) => `upscale:${id}`;

export type UpscaleJobEvent =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; outcome: UpscaleOutcome }
  | { type: 'failed'; failure: StoredFailure }
  | { type: 'cancelled' };

export interface UpscaleJobDeps {
  table: UpscaleJobTable;
  inputs: InputStore;
  replays: DurableReplays;
  /** The engines: only a process that runs upscales (ROLE=worker or all) has them. */
  service?: UpscaleService;
  workerId: string;
  resultTtlSeconds: number;
  errorContext: ErrorContext;
  now: () => Date;
  log: FastifyBaseLogger;
}

export function toStoredFailure(error: unknown, ctx: ErrorContext): StoredFailure {
  const mapped = toUpscaleHttpError(error, ctx);
  return { status: mapped.status, code: mapped.code, vars: mapped.vars };
}

/** The two job kinds (interactive singles, batch images) sharing one lane and one run. */
export function upscaleJobHandlers(d: UpscaleJobDeps): JobHandler[] {
  const run: JobHandler['run'] = async (ctx) => {
    const id = ctx.job.ref_id;
    if (!d.service) throw new Error('this process runs no upscale engines');
    let row: Awaited<ReturnType<UpscaleJobTable['get']>>;
    try {
      row = await d.table.get(id);
      // Cancelled (or answered) before a worker took it: nothing to do.
      if (!row || !ACTIVE_STATUSES.includes(row.status)) return;
      if (!(await d.table.start(id, d.workerId))) return;
    } catch (error) {
      // The database is away for a moment (a restart): the queue runs the job again after a wait.
      throw databaseOutage(error);
    }
    // With "upscale job done" (or its discard), what an operator counts runs per image with.
    d.log.info({ upscaleJobId: id, workerId: d.workerId, attempt: ctx.attempt }, 'upscale job started');
    const topic = upscaleTopic(id);
    const began = Date.now();
    // False when another worker took the job meanwhile: its input is that worker's to remove.
    let ended = true;
    try {
      const data = await d.inputs.get(row.input_ref);
      if (!data) throw new Error(`the input of upscale job ${id} is gone`);
      const params = JSON.parse(row.params_json) as UpscaleParams;
      const outcome = await d.service.upscale({ filename: row.filename, data }, params, {
        signal: ctx.signal,
        onStart: () => ctx.publish(topic, { type: 'progress', fraction: 0 } satisfies UpscaleJobEvent),
        onProgress: (fraction) => ctx.publish(topic, { type: 'progress', fraction } satisfies UpscaleJobEvent),
        // Stored before the result is published: a crash leaves both or neither.
        beforePublish: async (result) => {
          if (!row.idem_key || !row.fingerprint) return;
          await d.replays
            .put(row.user_id, row.idem_key, {
              fingerprint: row.fingerprint,
              outcome: result,
              expiresAt: d.now().getTime() + replayTtlMs(d.resultTtlSeconds),
            })
            // A record that cannot be written costs a second run on a resend, not this answer.
            .catch((error: unknown) => d.log.warn({ err: error, jobId: id }, 'could not write an upscale replay record'));
        },
      });
      // The row first, then the event: a replica that missed the notification reads the row.
      const ms = Date.now() - began;
      // Kept through a database restart: the image is not made again for a write that failed.
      if (await persist(() => d.table.complete(id, outcome, ms, d.workerId), ctx.signal)) {
        d.log.info({ upscaleJobId: id, workerId: d.workerId, ms }, 'upscale job done');
        ctx.publish(topic, { type: 'done', outcome } satisfies UpscaleJobEvent);
      } else {
        ended = false;
        // Another worker took the job while this one was thought gone: its answer stands, not ours.
        d.log.warn({ upscaleJobId: id, workerId: d.workerId, ms }, 'upscale job result discarded: the job is no longer this worker\'s');
      }
    } catch (error) {
      // Cancelled, handed back at shutdown, or a crash: the queue decides (fail() or another run).
      if (ctx.signal.aborted) throw error;
      // The engine refused the image or failed: answered as the in-process path answers, not retried.
      const failure = toStoredFailure(error, d.errorContext);
      if (failure.status >= 500) d.log.error({ err: error, jobId: id }, 'upscale job failed');
      ended = await persist(() => d.table.fail(id, failure, d.workerId), ctx.signal);
      if (ended) ctx.publish(topic, { type: 'failed', failure } satisfies UpscaleJobEvent);
    }
    if (ended) await d.inputs.remove(row.input_ref).catch(() => undefined);
  };

  const fail: JobHandler['fail'] = async (job, error, reason, publish) => {
    const id = job.ref_id;
    const row = await d.table.get(id);
    const topic = upscaleTopic(id);
    if (reason === 'cancelled') {
      await d.table.cancel(id);
      publish(topic, { type: 'cancelled' } satisfies UpscaleJobEvent);
    } else {
      const failure = toStoredFailure(error, d.errorContext);
      if (await d.table.fail(id, failure)) publish(topic, { type: 'failed', failure } satisfies UpscaleJobEvent);
    }
    if (row) await d.inputs.remove(row.input_ref).catch(() => undefined);
  };

  const common = { lane: () => UPSCALE_LANE, timeoutMs: UPSCALE_JOB_TIMEOUT_MS, run, fail };
  return [
    { kind: UPSCALE_KIND, jobClass: 'interactive', ...common },
    // Batch images rank below every single upscale and round-robin across users (fair-priority.ts).
    { kind: UPSCALE_BATCH_KIND, jobClass: 'batch', ...common },
  ];
}

/** A write the database may refuse for a moment (a restart takes seconds): tried again for about 20 s. */
async function persist<T>(write: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await write();
    } catch (error) {
      if (tries >= 8 || signal.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * tries));
    }
  }
}

/** Removes inputs a crash left behind: old, and no unfinished job needs them. */
export async function sweepInputs(table: UpscaleJobTable, inputs: InputStore, nowMs: number): Promise<number> {
  const before = nowMs - INPUT_SWEEP_AGE_MS;
  // Inputs stored since the listing are younger than `before`: the sweep leaves them alone too.
  const inUse = await table.inputsInUse(await inputs.listOlder(before));
  return inputs.removeOlder(before, (ref) => inUse.has(ref));
}

/**
 * A worker says every few seconds that it lives, with its engine slots and models (the API
 * replicas' queue-full limit and model list read them), and sweeps old inputs and rows.
 */
export class UpscaleWorkerPresence {
  private timer: NodeJS.Timeout | undefined;
  private beats = 0;

  constructor(
    private readonly o: {
      table: UpscaleJobTable;
      inputs: InputStore;
      service: UpscaleService;
      workerId: string;
      slots: number;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.o.table.retireWorker(this.o.workerId).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    try {
      const models = await this.o.service.listEngineModels().catch(() => []);
      await this.o.table.heartbeat(this.o.workerId, this.o.slots, models);
      // About every ten minutes.
      if (this.beats++ % 60 === 0) {
        const nowMs = this.o.now().getTime();
        await sweepInputs(this.o.table, this.o.inputs, nowMs);
        await this.o.table.sweep(new Date(nowMs - ROW_KEEP_MS));
      }
    } catch (error) {
      this.o.log.warn({ err: error }, 'upscale worker heartbeat failed');
    }
  }
}
