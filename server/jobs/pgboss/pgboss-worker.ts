// The worker half of team mode's job queue (pgboss-queue.ts): how a process that runs jobs takes
// them from the lane queues, runs them and records their end.
//
// - taking: per lane, at most concurrency(lane) jobs at once, by fetching only as many as there
//   are free slots; fair-share.ts's reserve keeps some slots of a lane for interactive work. A job
//   is taken and recorded as this worker's in one transaction (worker-leases.ts).
// - retries keep the runner's rule (retry-decision.ts: backoff, Retry-After, the job's budget): the
//   attempt is completed (output.outcome 'retried') and the next one sent with startAfter in the
//   same transaction. pg-boss's own retry is kept for what only the engine can see: a worker that
//   died mid-job. When those run out the engine fails the job into the dead-letter queue, which
//   this worker drains by marking the row failed.
// - a graceful stop hands each running job back (a new job that may start at once, no retry used).
// - every end is recorded only as the job's recorded owner, so a worker that was thought dead (and
//   whose job another worker took) finds its job gone, aborts and discards its result.
import type { JobWithMetadata } from 'pg-boss';
import { isDatabaseUnavailable } from '../../db/database-unavailable.js';
import { ProviderError } from '../../providers/capabilities.js';
import { DEFAULT_FAIR_SHARE } from '../fair-share.js';
import { announceRetry, runUntilStopped, serialWake, type RunEnd } from '../handler-run.js';
import type { FailReason, JobContext, JobHandler } from '../job-handler.js';
import type { JobRow } from '../job-table.js';
import { decideAfterFailure } from '../retry-decision.js';
import { databaseOutage } from '../retryable-error.js';
import { affected, DEAD_QUEUE, keyOf, LANE_QUEUE_PREFIX, type JobData, type LaneJobs } from './lane-jobs.js';
import type { PgBossQueueOptions } from './pgboss-options.js';
import type { WorkerLeases } from './worker-leases.js';

/** Tries to record a job's end while the database does not answer (about a minute in all). */
const SETTLE_TRIES = 16;

export type StopReason = 'cancel' | 'shutdown' | 'timeout' | 'lost' | 'crash';

export type PgBossWorkerOptions = Pick<
  PgBossQueueOptions,
  'boss' | 'sql' | 'bus' | 'schema' | 'now' | 'log' | 'runsJobs' | 'concurrency' | 'pollMs' | 'backoff'
> & {
  lanes: LaneJobs;
  leases: WorkerLeases;
  /** The queue's handlers by kind (registered there). */
  handlers: ReadonlyMap<string, JobHandler>;
};

interface ActiveJob {
  id: string;
  queue: string;
  key: string;
  lane: string;
  cls: string;
  controller: AbortController;
  done: Promise<void>;
}

export class PgBossWorker {
  private readonly active = new Map<string, ActiveJob>();
  /** Jobs running per lane. */
  private readonly busy = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Looks at the lane queues: on the poll, at a NOTIFY, after a job ends or a retry's wait. */
  readonly wake = serialWake(
    () => this.tick(),
    () => this.running && this.o.runsJobs,
    (error) => this.o.log.warn({ err: error }, 'job worker could not read the queues'),
  );

  constructor(private readonly o: PgBossWorkerOptions) {}

  start(): void {
    this.running = true;
    if (!this.o.runsJobs) return;
    this.timer = setInterval(() => this.wake(), this.o.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops taking jobs and hands the running ones back; true when every one was handed back. */
  async stop(): Promise<boolean> {
    this.running = false;
    clearInterval(this.timer);
    const running = [...this.active.values()];
    for (const job of running) job.controller.abort('shutdown' satisfies StopReason);
    await Promise.race([Promise.all(running.map((j) => j.done)), delay(5000)]);
    return this.active.size === 0;
  }

  /** A process that dies: its runs stop and nothing is settled. */
  abandon(): void {
    this.running = false;
    clearInterval(this.timer);
    for (const job of this.active.values()) job.controller.abort('crash' satisfies StopReason);
  }

  /** True when this process runs the job. */
  runsHere(id: string): boolean {
    return this.active.has(id);
  }

  /** Aborts a run of this process for a cancel; resolves once it is settled (undefined when it does not run here). */
  cancelHere(id: string): Promise<void> | undefined {
    const local = this.active.get(id);
    if (!local) return undefined;
    local.controller.abort('cancel' satisfies StopReason);
    return local.done;
  }

  /** Jobs running in this process. */
  get runningCount(): number {
    return this.active.size;
  }

  /** Tells the job's handler it ended without success (its row is marked so). */
  async failRow(id: string, data: JobData, error: unknown, reason: FailReason): Promise<void> {
    const handler = this.o.handlers.get(data.kind);
    try {
      await handler?.fail(this.o.lanes.rowOf(id, data, 0), error, reason, (topic, event) => this.o.bus.publish(topic, event));
    } catch (e) {
      this.o.log.error({ err: e, jobId: id }, 'could not record the end of a job');
    }
  }

  private async tick(): Promise<void> {
    await this.checkRunning();
    const r = await this.o.sql(`SELECT name FROM "${this.o.schema}".queue WHERE name LIKE '${LANE_QUEUE_PREFIX}%' ORDER BY name`);
    for (const { name } of r.rows as { name: string }[]) {
      if (!this.running) return;
      const lane = name.slice(LANE_QUEUE_PREFIX.length);
      const capacity = this.o.concurrency(lane);
      const free = capacity - (this.busy.get(lane) ?? 0);
      if (free <= 0) continue;
      // fair-share.ts's reserve: in a lane of two or more slots, batch work leaves some of them to
      // interactive work. Interactive jobs are in a priority band above every batch job, so a
      // fetch takes them first; the reserved slots are fetched for only while one waits.
      const reserve = capacity >= 2 ? DEFAULT_FAIR_SHARE.interactiveReserve : 0;
      const open = Math.max(0, Math.min(free, capacity - reserve - this.batchRunning(lane)));
      // Taken and recorded as this worker's in one transaction.
      const take = (batchSize: number) =>
        this.o.leases.claim(name, (db) => this.o.boss.fetch<JobData>(name, { batchSize, includeMetadata: true, priority: true, db }));
      const jobs = open > 0 ? await take(open) : [];
      const reserved = Math.min(free - jobs.length, await this.interactiveWaiting(name, free - jobs.length));
      if (reserved > 0) {
        // Counted, then fetched: a job counted may have gone to another worker in between, and the
        // fetch then brings batch work, which a reserved slot must not run. It goes straight back.
        for (const job of await take(reserved)) {
          if (job.data.cls === 'interactive') jobs.push(job);
          else await this.replace(job, name, job.data, 'handed-back');
        }
      }
      if (!this.running) {
        // Stopped meanwhile: straight back to the queue.
        for (const job of jobs) await this.o.leases.asOwner(job.id, (db) => this.o.boss.fail(name, job.id, { outcome: 'handed-back' }, { db }));
        return;
      }
      for (const job of jobs) this.launch(job, name, lane);
    }
    if (this.running) await this.drainDead();
  }

  private batchRunning(lane: string): number {
    let n = 0;
    for (const job of this.active.values()) if (job.lane === lane && job.cls === 'batch') n += 1;
    return n;
  }

  /** Interactive jobs due in a queue, counted up to `limit`. */
  private async interactiveWaiting(queue: string, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const r = await this.o.sql(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${this.o.lanes.jobTable}
         WHERE name = $1 AND state IN ('created', 'retry') AND start_after <= now() AND data->>'cls' = 'interactive' LIMIT $2) due`,
      [queue, limit],
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Cancelled elsewhere, or handed back (this worker was thought gone) and maybe taken by another: stop running it here. */
  private async checkRunning(): Promise<void> {
    await this.handBackOrphans();
    if (this.active.size === 0) return;
    const ids = [...this.active.keys()];
    const states = await this.o.leases.states(ids);
    for (const id of ids) {
      const job = states.get(id);
      if (job?.state === 'active' && job.owner === this.o.leases.owner) continue;
      const cancelled = job?.state === 'cancelled' && job.owner === this.o.leases.owner;
      this.active.get(id)?.controller.abort((cancelled ? 'cancel' : 'lost') satisfies StopReason);
    }
  }

  /**
   * Jobs recorded as this worker's that it no longer runs (their end could not be recorded, e.g.
   * while the database restarted): handed back to pg-boss at once, so another run finishes them.
   */
  private async handBackOrphans(): Promise<void> {
    for (const orphan of await this.o.leases.ownedBesides(new Set(this.active.keys()))) {
      const back = await this.o.leases.asOwner(orphan.jobId, (db) => this.o.boss.fail(orphan.queue, orphan.jobId, { outcome: 'orphaned' }, { db }));
      if (back) this.o.log.warn({ jobId: orphan.jobId }, 'a job whose end could not be recorded was handed back to the queue');
    }
  }

  /** Jobs the engine gave up on (their worker died more often than the stall retries allow). */
  private async drainDead(): Promise<void> {
    const jobs = await this.o.boss.fetch<JobData>(DEAD_QUEUE, { batchSize: 10 });
    for (const job of jobs) {
      await this.failRow(job.id, job.data, new ProviderError('timeout', 'the worker running this job stopped answering'), 'error');
      await this.o.boss.complete(DEAD_QUEUE, job.id);
    }
  }

  private launch(job: JobWithMetadata<JobData>, queue: string, lane: string): void {
    const handler = this.o.handlers.get(job.data.kind);
    if (!handler) {
      void this.o.leases
        .asOwner(job.id, (db) => this.o.boss.complete(queue, job.id, { outcome: 'failed', error: `no handler for ${job.data.kind}` }, { db }))
        .catch(() => undefined);
      return;
    }
    const row = this.o.lanes.rowOf(job.id, job.data, job.retryCount);
    const controller = new AbortController();
    this.busy.set(lane, (this.busy.get(lane) ?? 0) + 1);
    const publish: JobContext['publish'] = (topic, event) => this.o.bus.publish(topic, event);
    const done = (async () => {
      const end = await runUntilStopped<StopReason>(
        (signal) => handler.run({ job: row, signal, attempt: row.attempts, publish }),
        controller,
        this.o.lanes.runLimit(handler),
      );
      // The database may be restarting: the end is recorded again a few times before giving up
      // (each try is one transaction, so a failed one left nothing behind). Past that, the job is
      // still this worker's in job_owners but runs nowhere: the next check hands it back.
      for (let tries = 1; ; tries += 1) {
        try {
          await this.settle(job, queue, row, handler, end, publish);
          break;
        } catch (e) {
          if (!isDatabaseUnavailable(e) || tries >= SETTLE_TRIES) {
            this.o.log.error({ err: e, jobId: job.id }, 'could not record the end of a job');
            break;
          }
          this.o.log.warn({ err: e, jobId: job.id, tries }, 'could not record the end of a job yet; trying again');
          await delay(Math.min(5000, 200 * 2 ** tries));
        }
      }
    })().finally(() => {
      this.active.delete(job.id);
      this.busy.set(lane, (this.busy.get(lane) ?? 1) - 1);
      this.wake();
    });
    this.active.set(job.id, { id: job.id, queue, key: keyOf(job.data.kind, job.data.refId), lane, cls: job.data.cls, controller, done });
  }

  private async settle(
    job: JobWithMetadata<JobData>,
    queue: string,
    row: JobRow,
    handler: JobHandler,
    { ok, reason, error }: RunEnd<StopReason>,
    publish: JobContext['publish'],
  ): Promise<void> {
    if (reason === 'crash' || reason === 'lost') return;
    if (reason === 'shutdown') {
      // Not a failure and no retry used: a fresh job of the same attempt another worker takes now.
      await this.replace(job, queue, { ...job.data, attempt: row.attempts - 1 }, 'handed-back');
      return;
    }
    if (ok) {
      const mine = await this.o.leases.asOwner(job.id, (db) => this.o.boss.complete(queue, job.id, { outcome: 'completed' }, { db }));
      if (!mine) this.o.log.warn({ jobId: job.id, kind: job.data.kind }, 'job result discarded: another worker took the job over');
      return;
    }
    if (reason === 'cancel') {
      const mine = await this.o.leases.asOwner(job.id, (db) => this.o.boss.cancel(queue, job.id, { db }));
      if (mine) await handler.fail(row, new ProviderError('cancelled', 'cancelled'), 'cancelled', publish);
      return;
    }
    const decision = decideAfterFailure({
      // The run's own database work met a restart: run it again with the usual backoff.
      error: isDatabaseUnavailable(error) ? databaseOutage(error, { keepCause: true }) : error,
      timedOut: reason === 'timeout',
      runLimitMs: this.o.lanes.runLimit(handler),
      attempts: row.attempts,
      deadline: job.data.deadline,
      now: this.o.now(),
      backoff: this.o.backoff,
    });
    const { failure, text } = decision;
    if (decision.action === 'retry') {
      const replaced = await this.replace(job, queue, { ...job.data, attempt: row.attempts, lastError: text }, 'retried', decision.nextRunAt);
      if (replaced) await announceRetry({ log: this.o.log, handler, publish, wake: this.wake }, { id: job.id, row }, decision);
      return;
    }
    if (decision.unexpected) this.o.log.error({ err: failure, jobId: job.id, kind: job.data.kind }, 'job failed');
    const mine = await this.o.leases.asOwner(job.id, (db) => this.o.boss.complete(queue, job.id, { outcome: 'failed', error: text }, { db }));
    if (mine && affected(mine.value)) await handler.fail(row, failure, 'error', publish);
  }

  /** Completes this attempt and sends the next one in one transaction; false when the job was no longer ours. */
  private async replace(
    job: JobWithMetadata<JobData>,
    queue: string,
    data: JobData,
    outcome: string,
    startAfter?: Date,
  ): Promise<boolean> {
    const handler = this.o.handlers.get(data.kind);
    // Only as the job's owner: a worker that lost it sends no second job.
    const mine = await this.o.leases.asOwner(job.id, async (db) => {
      const r = await this.o.boss.complete(queue, job.id, { outcome }, { db });
      if (!affected(r)) return false;
      await this.o.lanes.send(db, queue, data, { priority: job.priority, handler, ...(startAfter ? { startAfter } : {}) });
      await this.o.lanes.notifyWake(db, queue);
      return true;
    });
    return mine?.value ?? false;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
