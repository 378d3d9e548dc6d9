// The database-backed job runner: every job is a row, claimed with a lease by one process at a
// time, run by its kind's handler within a per-provider concurrency limit, retried with backoff
// on retryable provider errors, and picked up again after a restart (a graceful stop hands its
// running jobs back at once; a crashed process's leases expire, and those of this server's own
// earlier run are taken back as it starts). Several replicas can share one database: a claim is
// one conditional UPDATE, so only one of them wins it. Which due job takes a free slot is the
// fairness rule of fair-share.ts (interactive first, round-robin across users, per-user caps).
import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import { ProviderError } from '../providers/capabilities.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import {
  DEFAULT_FAIR_SHARE,
  pickNext,
  userKey,
  waitingCapRefusal,
  type Candidate,
  type FairShareRules,
  type JobClass,
  type SlotHolder,
} from './fair-share.js';
import type { JobContext, JobHandler } from './job-handler.js';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobCancelOutcome, EnqueueRequest, JobQueue, ProgressListener } from './job-queue.js';
import type { JobDb, JobRow, JobTables } from './job-table.js';
import { heldByEarlierRun, newLeaseOwner, ownersOf, markLeaseOwnerLive } from './lease-owner.js';
import { announceRetry, runUntilStopped, serialWake, type RunEnd } from './handler-run.js';
import { ProgressBus } from './progress-bus.js';
import { decideAfterFailure } from './retry-decision.js';

export interface JobRunnerOptions {
  db: JobDb;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Jobs of one lane (provider) running at once in this process. */
  concurrency: (lane: string) => number;
  /** How often the table is looked at for due jobs (an enqueue here wakes the runner at once). */
  pollMs: number;
  /** A claimed job is this process's for this long, renewed while it runs. */
  leaseMs: number;
  /** Default time from enqueueing after which a job is not retried any more. */
  budgetMs: number;
  backoff: BackoffOptions;
  /** Caps every kind's run time (tests make a hung provider time out quickly). */
  maxRunMs?: number;
  /** This server's installation (lease-owner.ts installationId): its earlier run's leases are taken back at start. */
  installation?: string;
  /** The fairness rule's settings (fair-share.ts). */
  fairShare?: Partial<FairShareRules>;
}

/** Due jobs read per user and kind on each look at the table (enough to fill every lane). */
const DUE_PER_USER_AND_KIND = 16;

/**
 * The built-in engine's video jobs have a lane of their own: it renders one video at a time on the
 * server's CPU (render-queue.ts), so a video waiting for the renderer must not hold a slot of the
 * local lane, which the image stages (a collection's next fabric, a person's analysis) need.
 */
export const LOCAL_VIDEO_LANE = 'local-video';

export const DEFAULT_RUNNER_OPTIONS = {
  pollMs: 1000,
  leaseMs: 60_000,
  // Spec §9's image call timeout: the user is told after ten minutes, not kept waiting for ever.
  budgetMs: 600_000,
  backoff: DEFAULT_BACKOFF,
  // The built-in engine: two image jobs at once on the server's CPU, and one video (it renders one
  // at a time); four calls at once to each cloud.
  concurrency: (lane: string) => (lane === 'local' ? 2 : lane === LOCAL_VIDEO_LANE ? 1 : 4),
} satisfies Partial<JobRunnerOptions>;

type StopReason = 'cancel' | 'shutdown' | 'timeout';

interface ActiveJob {
  kind: string;
  refId: number;
  lane: string;
  user: string;
  jobClass: JobClass;
  controller: AbortController;
  done: Promise<void>;
}

const iso = (d: Date) => d.toISOString();

export class JobRunner implements JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly active = new Map<number, ActiveJob>();
  private readonly lanes = new Map<string, number>();
  private readonly bus = new ProgressBus();
  private readonly owner: string;
  private readonly rules: FairShareRules;
  /** Order of each user's latest start (round-robin). */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private reclaimed = false;
  private readonly wake = serialWake(
    () => this.tick(),
    () => this.running,
    (error) => this.o.log.warn({ err: error }, 'job runner could not read the jobs table'),
  );

  constructor(private readonly o: JobRunnerOptions) {
    this.owner = newLeaseOwner(o.installation);
    this.rules = { ...DEFAULT_FAIR_SHARE, ...o.fairShare };
  }

  register(handler: JobHandler): void {
    this.handlers.set(handler.kind, handler);
  }

  /** Starts claiming due jobs, first of all those a stopped or crashed process left. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.reclaimed = false;
    markLeaseOwnerLive(this.owner, true);
    this.timer = setInterval(() => this.wake(), this.o.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops claiming, aborts running jobs and hands them back to the table for the next process. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.timer);
    const running = [...this.active.values()];
    for (const job of running) job.controller.abort('shutdown' satisfies StopReason);
    // A handler that ignores its signal is not waited for long: its lease is released below anyway.
    await Promise.race([Promise.all(running.map((j) => j.done)), delay(5000)]);
    await this.o.db
      .updateTable('jobs')
      .set({ status: 'queued', lease_owner: null, lease_expires_at: null, updated_at: iso(this.o.now()) })
      .where('lease_owner', '=', this.owner)
      .where('status', '=', 'running')
      .execute();
    markLeaseOwnerLive(this.owner, false);
  }

  async admit(userId: number, kind: string, count = 1): Promise<void> {
    const jobClass = this.classOf(kind);
    const kinds = [...this.handlers.values()].filter((h) => (h.jobClass ?? 'interactive') === jobClass).map((h) => h.kind);
    // The user's waiting jobs of the class: those queued in it by their caller, and those of its kinds that named none.
    const row = await this.o.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll().as('waiting'))
      .where('user_id', '=', userId)
      .where('status', '=', 'queued')
      .where((eb) =>
        eb.or([
          eb('job_class', '=', jobClass),
          ...(kinds.length > 0 ? [eb.and([eb('job_class', 'is', null), eb('kind', 'in', kinds)])] : []),
        ]),
      )
      .executeTakeFirst();
    const refusal = waitingCapRefusal(Number(row?.waiting ?? 0), count, this.rules);
    if (refusal) throw refusal;
  }

  async enqueue(request: EnqueueRequest, options?: { trx?: Transaction<Database> }): Promise<number> {
    // In the caller's transaction when given (SQLite has one connection: a query outside it would wait for it).
    const db: JobDb = options?.trx ? options.trx.withTables<JobTables>() : this.o.db;
    const existing = await this.unfinished(request.kind, request.refId, db);
    if (existing) return existing.id;
    const now = this.o.now();
    const row = await db
      .insertInto('jobs')
      .values({
        kind: request.kind,
        ref_id: request.refId,
        user_id: request.userId ?? null,
        params_json: request.params ? JSON.stringify(request.params) : null,
        job_class: request.jobClass ?? null,
        status: 'queued',
        attempts: 0,
        next_run_at: iso(now),
        deadline_at: iso(new Date(now.getTime() + (request.budgetMs ?? this.o.budgetMs))),
        lease_owner: null,
        lease_expires_at: null,
        cancel_requested: 0,
        last_error: null,
        finished_at: null,
        created_at: iso(now),
        updated_at: iso(now),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Inside a transaction the row is not visible yet: on SQLite the tick waits for the commit, on
    // PostgreSQL it would wait for the next poll; a follow-up wakes the runner once it is committed.
    this.wake();
    if (options?.trx) this.wakeWhenVisible(Number(row.id));
    return Number(row.id);
  }

  /**
   * Looks for a job written in a caller's transaction after 5, 10, 20, ... ms (each a read of one
   * row outside that transaction) and wakes the runner as soon as it is committed; gives up at the
   * poll interval (the poll finds it then, or it was rolled back).
   */
  private wakeWhenVisible(id: number, delayMs = 5): void {
    if (!this.running || delayMs >= this.o.pollMs) return;
    setTimeout(() => {
      void this.o.db
        .selectFrom('jobs')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst()
        .then((seen) => (seen ? this.wake() : this.wakeWhenVisible(id, delayMs * 2)))
        .catch(() => undefined);
    }, delayMs).unref();
  }

  async cancel(kind: string, refId: number): Promise<JobCancelOutcome> {
    const job = await this.unfinished(kind, refId);
    if (!job) return 'not_running';
    const now = iso(this.o.now());
    if (job.status === 'queued') {
      const r = await this.o.db
        .updateTable('jobs')
        .set({ status: 'cancelled', finished_at: now, updated_at: now })
        .where('id', '=', job.id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) {
        await this.failQuietly(job, new ProviderError('cancelled', 'cancelled'), 'cancelled');
        return 'cancelled';
      }
      // It was claimed meanwhile: cancel it as a running job.
    }
    const local = this.active.get(job.id);
    if (local) {
      local.controller.abort('cancel' satisfies StopReason);
      await local.done;
      return 'cancelled';
    }
    // Running in another process: its heartbeat sees the flag and aborts it.
    await this.o.db
      .updateTable('jobs')
      .set({ cancel_requested: 1, updated_at: now })
      .where('id', '=', job.id)
      .execute();
    return 'requested';
  }

  async isActive(kind: string, refId: number): Promise<boolean> {
    return (await this.unfinished(kind, refId)) !== undefined;
  }

  onProgress(topic: string, listener: ProgressListener): () => void {
    return this.bus.subscribe(topic, listener);
  }

  publish(topic: string, event: Record<string, unknown>): void {
    this.bus.publish(topic, event);
  }

  private unfinished(kind: string, refId: number, db: JobDb = this.o.db): Promise<JobRow | undefined> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', kind)
      .where('ref_id', '=', refId)
      .where('status', 'in', ['queued', 'running'])
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  private async tick(): Promise<void> {
    if (!this.reclaimed) {
      await this.reclaimEarlierRun();
      this.reclaimed = true;
    }
    const now = iso(this.o.now());
    const isDue = (eb: ExpressionBuilder<JobTables, 'jobs'>) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('next_run_at', '<=', now)]),
        eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', now)]),
      ]);
    // The first due jobs of every user and kind, so one user's backlog cannot hide anyone else's.
    const ranked = this.o.db
      .selectFrom('jobs')
      .selectAll()
      .select((eb) =>
        eb.fn
          .agg<number>('row_number')
          .over((ob) => ob.partitionBy(['user_id', 'kind']).orderBy('next_run_at').orderBy('id'))
          .as('due_rank'),
      )
      .where(isDue);
    // The slots this tick may fill are those free when it reads the table: a slot freed while the
    // read is under way is left to the tick that its job's end asks for, which reads again, so a
    // user whose first job was queued meanwhile is seen (a stale read gave it to the backlog).
    const runningAtRead: SlotHolder[] = [...this.active.values()];
    const due = await this.o.db
      .selectFrom(ranked.as('due'))
      .selectAll()
      .where('due_rank', '<=', DUE_PER_USER_AND_KIND)
      .execute();
    let pool: (Candidate & { row: JobRow; handler: JobHandler })[] = [];
    for (const { due_rank: _rank, ...job } of due) {
      if (this.active.has(job.id)) continue;
      const handler = this.handlers.get(job.kind);
      if (!handler) continue;
      pool.push({
        id: job.id,
        user: userKey(job.user_id),
        lane: handler.lane(job),
        jobClass: classOfJob(job, handler),
        readyAt: job.status === 'running' ? (job.lease_expires_at ?? job.next_run_at) : job.next_run_at,
        row: job,
        handler,
      });
    }
    for (;;) {
      if (!this.running) return;
      const next = pickNext(
        pool,
        { running: runningAtRead, capacity: this.o.concurrency, lastServed: this.lastServed },
        this.rules,
      );
      if (!next) return;
      pool = pool.filter((c) => c !== next);
      const claimed = await this.claim(next.row, now);
      if (!claimed) continue;
      this.lastServed.set(next.user, ++this.served);
      this.launch(claimed, next.handler, next.lane);
      runningAtRead.push({ user: next.user, lane: next.lane, jobClass: next.jobClass });
    }
  }

  /** Hands back at once the jobs this installation's earlier run held when it died. */
  private async reclaimEarlierRun(): Promise<void> {
    const installation = this.o.installation;
    if (!installation) return;
    const held = await this.o.db
      .selectFrom('jobs')
      .select(['id', 'lease_owner'])
      .where('status', '=', 'running')
      .where('lease_owner', 'like', ownersOf(installation))
      .execute();
    const now = iso(this.o.now());
    let count = 0;
    for (const job of held) {
      if (!job.lease_owner || !heldByEarlierRun(job.lease_owner, installation)) continue;
      const r = await this.o.db
        .updateTable('jobs')
        .set({ status: 'queued', lease_owner: null, lease_expires_at: null, next_run_at: now, updated_at: now })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', job.lease_owner)
        .executeTakeFirst();
      count += Number(r.numUpdatedRows);
    }
    if (count > 0) this.o.log.info({ jobs: count }, 'resuming the jobs this server was running when it stopped');
  }

  private classOf(kind: string): JobClass {
    return this.handlers.get(kind)?.jobClass ?? 'interactive';
  }

  private async claim(job: JobRow, now: string): Promise<JobRow | undefined> {
    const leaseEnds = iso(new Date(this.o.now().getTime() + this.o.leaseMs));
    const r = await this.o.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        lease_owner: this.owner,
        lease_expires_at: leaseEnds,
        attempts: eb('attempts', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', job.id)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('next_run_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('lease_expires_at', '<', now)]),
        ]),
      )
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return undefined;
    return { ...job, status: 'running', lease_owner: this.owner, lease_expires_at: leaseEnds, attempts: job.attempts + 1 };
  }

  private launch(job: JobRow, handler: JobHandler, lane: string): void {
    const user = userKey(job.user_id);
    const jobClass = classOfJob(job, handler);
    const controller = new AbortController();
    this.lanes.set(lane, (this.lanes.get(lane) ?? 0) + 1);
    const publish: JobContext['publish'] = (topic, event) => this.bus.publish(topic, event);
    const heartbeat = setInterval(
      () => void this.heartbeat(job.id, controller),
      Math.max(50, Math.min(this.o.leaseMs / 3, 5000)),
    );
    const done = (async () => {
      const end = await runUntilStopped<StopReason>(
        (signal) => handler.run({ job, signal, attempt: job.attempts, publish }),
        controller,
        this.runLimit(handler),
      );
      clearInterval(heartbeat);
      try {
        await this.settle(job, handler, end, publish);
      } catch (e) {
        this.o.log.error({ err: e, jobId: job.id }, 'could not record the end of a job');
      }
    })().finally(() => {
      this.active.delete(job.id);
      this.lanes.set(lane, (this.lanes.get(lane) ?? 1) - 1);
      this.wake();
    });
    this.active.set(job.id, { kind: job.kind, refId: job.ref_id, lane, user, jobClass, controller, done });
  }

  private async settle(
    job: JobRow,
    handler: JobHandler,
    { ok, reason, error }: RunEnd<StopReason>,
    publish: JobContext['publish'],
  ): Promise<void> {
    const now = this.o.now();
    const mine = () =>
      this.o.db.updateTable('jobs').where('id', '=', job.id).where('lease_owner', '=', this.owner);
    const free = { lease_owner: null, lease_expires_at: null, updated_at: iso(now) };

    if (reason === 'shutdown') {
      // Not a failure: the next process resumes it.
      await mine()
        .set({ ...free, status: 'queued', next_run_at: iso(now) })
        .execute();
      return;
    }
    if (ok) {
      await mine()
        .set({ ...free, status: 'completed', finished_at: iso(now), last_error: null })
        .execute();
      return;
    }
    if (reason === 'cancel') {
      const r = await mine()
        .set({ ...free, status: 'cancelled', finished_at: iso(now) })
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) await handler.fail(job, new ProviderError('cancelled', 'cancelled'), 'cancelled', publish);
      return;
    }
    const decision = decideAfterFailure({
      error,
      timedOut: reason === 'timeout',
      runLimitMs: this.runLimit(handler),
      attempts: job.attempts,
      deadline: job.deadline_at,
      now,
      backoff: this.o.backoff,
    });
    const { failure, text } = decision;
    if (decision.action === 'retry') {
      const r = await mine()
        .set({ ...free, status: 'queued', next_run_at: iso(decision.nextRunAt), last_error: text })
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) {
        await announceRetry({ log: this.o.log, handler, publish, wake: this.wake }, { id: job.id, row: job }, decision);
      }
      return;
    }
    if (decision.unexpected) this.o.log.error({ err: failure, jobId: job.id, kind: job.kind }, 'job failed');
    const r = await mine()
      .set({ ...free, status: 'failed', finished_at: iso(now), last_error: text })
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) await handler.fail(job, failure, 'error', publish);
  }

  private runLimit(handler: JobHandler): number {
    return Math.min(handler.timeoutMs, this.o.maxRunMs ?? Infinity);
  }

  /** Renews the lease and notices a cancel asked for through another process. */
  private async heartbeat(jobId: number, controller: AbortController): Promise<void> {
    if (controller.signal.aborted) return;
    try {
      const leaseEnds = iso(new Date(this.o.now().getTime() + this.o.leaseMs));
      await this.o.db
        .updateTable('jobs')
        .set({ lease_expires_at: leaseEnds })
        .where('id', '=', jobId)
        .where('lease_owner', '=', this.owner)
        .execute();
      const row = await this.o.db
        .selectFrom('jobs')
        .select(['cancel_requested', 'lease_owner'])
        .where('id', '=', jobId)
        .executeTakeFirst();
      if (row && Number(row.cancel_requested) === 1) controller.abort('cancel' satisfies StopReason);
    } catch (error) {
      this.o.log.warn({ err: error, jobId }, 'job lease renewal failed');
    }
  }

  private async failQuietly(job: JobRow, error: unknown, reason: 'cancelled'): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      await handler?.fail(job, error, reason, (topic, event) => this.bus.publish(topic, event));
    } catch (e) {
      this.o.log.error({ err: e, jobId: job.id }, 'could not record a cancelled job');
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A job's class: the one its caller chose, or its kind's. */
function classOfJob(job: JobRow, handler: JobHandler): JobClass {
  return job.job_class ?? handler.jobClass ?? 'interactive';
}
