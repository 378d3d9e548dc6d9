// The JobQueue of team mode on pg-boss 10 (PostgreSQL, SKIP LOCKED), shared by any number of API
// replicas and workers. One pg-boss queue per lane (provider): `loom-lane-<lane>`; a worker takes
// at most concurrency(lane) jobs of a lane at once, by fetching only as many as it has free slots.
//
// - enqueue: in one transaction (the caller's, or one of its own) an advisory lock on kind+row,
//   a look for an unfinished job of that row (singletonKey `kind:refId`), the waiting cap, then
//   pg-boss's send() over that same transaction (its `db` option) and a NOTIFY that wakes the
//   workers at commit. A rolled-back transaction leaves no job; a resend finds the first job.
// - retries keep the runner's policy (backoff.ts, Retry-After, the job's budget): the attempt is
//   completed (output.outcome 'retried') and the next one sent with startAfter in the same
//   transaction. pg-boss's own retry (retryLimit with its backoff) is kept for what only the engine
//   can see: a worker that died mid-job (expireInSeconds passed). When those retries run out the
//   engine fails the job into the dead-letter queue, whose worker marks the row failed.
// - cancel: a waiting job is cancelled in pg-boss and its row failed at once; a running one is
//   cancelled in pg-boss and the worker running it is told by NOTIFY (and sees the state on its
//   next check if the notification was missed).
// - a graceful stop hands each running job back (a new job that may start at once, no retry used).
// - a worker that dies is noticed by its heartbeat (worker-leases.ts): once it is older than
//   staleMs, any process's sweep fails its active jobs in pg-boss (the engine's retry, at once) and
//   another worker runs them; every settle is done only as the job's recorded owner, so a worker
//   that was only slow finds its job gone, aborts and discards its result. pg-boss's expiry stays
//   the last resort.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type PgBoss from 'pg-boss';
import { isDatabaseUnavailable } from '../../db/database-unavailable.js';
import type { Database } from '../../db/schema.js';
import { ProviderError } from '../../providers/capabilities.js';
import { retryDelayMs, type BackoffOptions } from '../backoff.js';
import type { FailReason, JobContext, JobHandler } from '../job-handler.js';
import type { CancelOutcome, EnqueueOptions, EnqueueRequest, JobQueue, ProgressListener } from '../job-queue.js';
import type { JobRow } from '../job-table.js';
import type { PgListener } from '../pg-listener.js';
import type { PgProgressBus, SqlExecutor } from '../pg-progress-bus.js';
import { waitingCapRefusal, DEFAULT_FAIR_SHARE, type JobClass } from '../fair-share.js';
import { fairPriority } from './fair-priority.js';
import { DEFAULT_LEASES, WorkerLeases } from './worker-leases.js';

export const LANE_QUEUE_PREFIX = 'loom-lane-';
/** Tries to record a job's end while the database does not answer (about a minute in all). */
const SETTLE_TRIES = 16;
export const DEAD_QUEUE = 'loom-dead';

export interface PgBossQueueOptions {
  boss: PgBoss;
  /** Statements on the team pool (outside any caller's transaction). */
  sql: SqlExecutor;
  /** The app database: transactions for enqueue and cancel when the caller gives none. */
  appDb: Kysely<Database>;
  listener: PgListener;
  bus: PgProgressBus;
  /** pg-boss's schema. */
  schema: string;
  now: () => Date;
  log: FastifyBaseLogger;
  /** False on an API replica: it enqueues, cancels and streams but runs nothing. */
  runsJobs: boolean;
  concurrency: (lane: string) => number;
  /** How often a worker looks for due jobs besides the wake-ups (and checks its jobs' states). */
  pollMs: number;
  budgetMs: number;
  backoff: BackoffOptions;
  maxRunMs?: number;
  /** Added to a run's time limit to make its pg-boss expiry (a worker that died is noticed then). */
  expireGraceSeconds: number;
  /** Engine retries after a worker died mid-job. */
  stallRetryLimit: number;
  maxWaitingPerUser: number;
  /** The heartbeat of a process that runs jobs (default 10 s). */
  heartbeatMs?: number;
  /** A worker whose heartbeat is older than this has its active jobs handed back (default 30 s). */
  workerStaleMs?: number;
  /** How often every process looks for such workers (default 10 s). */
  sweepMs?: number;
}

interface JobData {
  kind: string;
  refId: number;
  userId: number | null;
  params: Record<string, unknown> | null;
  cls: string;
  /** Runs before this job (earlier attempts that were retried by us). */
  attempt: number;
  deadline: string;
  createdAt: string;
  lastError: string | null;
}

type StopReason = 'cancel' | 'shutdown' | 'timeout' | 'lost' | 'crash';

interface ActiveJob {
  id: string;
  queue: string;
  key: string;
  lane: string;
  cls: string;
  controller: AbortController;
  done: Promise<void>;
}

const iso = (d: Date) => d.toISOString();
const keyOf = (kind: string, refId: number) => `${kind}:${refId}`;
/** pg-boss ids are UUIDs; the interface speaks numbers: the first 48 bits, stable for logs. */
const numericId = (uuid: string) => parseInt(uuid.replace(/-/g, '').slice(0, 12), 16);
export const laneQueue = (lane: string) => `${LANE_QUEUE_PREFIX}${lane.replace(/[^A-Za-z0-9-]/g, '_')}`;

/** pg-boss's executeSql over a Kysely transaction, so its statements join the caller's work. */
export function transactionDb(trx: Transaction<Database>): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const r = await trx.executeQuery(CompiledQuery.raw(text, values));
      return { rows: r.rows as Record<string, unknown>[] };
    },
  };
}

export class PgBossQueue implements JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly active = new Map<string, ActiveJob>();
  private readonly lanes = new Map<string, number>();
  private readonly queues = new Set<string>();
  private readonly jobTable: string;
  private readonly wakeChannel: string;
  private readonly workerId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking = false;
  private tickAgain = false;
  private unlisten: (() => void) | undefined;
  private readonly leases: WorkerLeases;

  constructor(private readonly o: PgBossQueueOptions) {
    this.jobTable = `"${o.schema}".job`;
    this.wakeChannel = `loom_jobs_${o.schema}`.slice(0, 63);
    this.leases = new WorkerLeases({
      appDb: o.appDb,
      boss: o.boss,
      schema: o.schema,
      workerId: this.workerId,
      now: o.now,
      log: o.log,
      runsJobs: o.runsJobs,
      heartbeatMs: o.heartbeatMs ?? DEFAULT_LEASES.heartbeatMs,
      staleMs: o.workerStaleMs ?? DEFAULT_LEASES.staleMs,
      sweepMs: o.sweepMs ?? DEFAULT_LEASES.sweepMs,
      transactionDb,
      onRecovered: async (queues) => {
        for (const queue of queues) await this.o.sql('SELECT pg_notify($1, $2)', [this.wakeChannel, JSON.stringify({ type: 'wake', queue })]);
      },
    });
  }

  /** This process's id in the workers table (its heartbeat) and as the owner of the jobs it runs. */
  get id(): string {
    return this.workerId;
  }

  /** One round of the dead-worker sweep (tests; it also runs every sweepMs). */
  sweepDeadWorkers(): Promise<number> {
    return this.leases.sweep();
  }

  register(handler: JobHandler): void {
    this.handlers.set(handler.kind, handler);
  }

  async start(): Promise<void> {
    if (this.running) return;
    await this.createQueueOnce(DEAD_QUEUE, {});
    this.unlisten = await this.o.listener.listen(this.wakeChannel, (payload) => this.onNotice(payload));
    await this.leases.start();
    this.running = true;
    if (!this.o.runsJobs) return;
    this.timer = setInterval(() => this.wake(), this.o.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops taking jobs and hands the running ones back so another worker resumes them at once. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.timer);
    this.unlisten?.();
    const running = [...this.active.values()];
    for (const job of running) job.controller.abort('shutdown' satisfies StopReason);
    await Promise.race([Promise.all(running.map((j) => j.done)), delay(5000)]);
    // Its row goes only when every job was handed back; else the sweep hands back the rest.
    await this.leases.stop(this.active.size === 0);
  }

  /** A process that dies: nothing is settled or handed back (tests; the engine's expiry recovers). */
  abandon(): void {
    this.running = false;
    clearInterval(this.timer);
    void this.leases.stop(false);
    this.unlisten?.();
    for (const job of this.active.values()) job.controller.abort('crash' satisfies StopReason);
  }

  /** The shared rule of fair-share.ts: the user's waiting jobs of this kind's class, across every lane. */
  async admit(userId: number, kind: string, count = 1): Promise<void> {
    const r = await this.o.appDb.executeQuery<{ waiting: string | number }>(
      CompiledQuery.raw(
        `SELECT count(*) AS waiting FROM ${this.jobTable}
          WHERE name LIKE '${LANE_QUEUE_PREFIX}%' AND state < 'active' AND data->>'userId' = $1 AND data->>'cls' = $2`,
        [String(userId), this.classOf(kind)],
      ),
    );
    const refusal = waitingCapRefusal(Number(r.rows[0]?.waiting ?? 0), count, {
      maxWaitingPerUser: this.o.maxWaitingPerUser,
      retryAfterSeconds: DEFAULT_FAIR_SHARE.retryAfterSeconds,
    });
    if (refusal) throw refusal;
  }

  private classOf(kind: string): JobClass {
    return this.handlers.get(kind)?.jobClass ?? 'interactive';
  }

  async enqueue(request: EnqueueRequest, options: EnqueueOptions = {}): Promise<number> {
    const handler = this.handlers.get(request.kind);
    const now = this.o.now();
    const data: JobData = {
      kind: request.kind,
      refId: request.refId,
      userId: request.userId ?? null,
      params: request.params ?? null,
      cls: this.classOf(request.kind),
      attempt: 0,
      deadline: iso(new Date(now.getTime() + (request.budgetMs ?? this.o.budgetMs))),
      createdAt: iso(now),
      lastError: null,
    };
    const lane = handler ? handler.lane(this.rowOf('00000000-0000', data, 0)) : 'none';
    const queue = await this.ensureQueue(lane);
    const write = async (trx: Transaction<Database>) => {
      const db = transactionDb(trx);
      const key = keyOf(request.kind, request.refId);
      // Two replicas enqueueing the same row wait for each other here; the second finds the first's job.
      await db.executeSql('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.o.schema}:${key}`]);
      const existing = await db.executeSql(
        `SELECT id::text AS id FROM ${this.jobTable} WHERE singleton_key = $1 AND state < 'completed' LIMIT 1`,
        [key],
      );
      if (existing.rows[0]) return numericId(String(existing.rows[0].id));
      let waitingAhead = 0;
      if (data.userId !== null) {
        // The cap is checked by admit() before the rows are made; here only the rank matters.
        const counts = await db.executeSql(
          `SELECT count(*) AS ahead FROM ${this.jobTable}
            WHERE name = $2 AND state < 'active' AND data->>'userId' = $1 AND data->>'cls' = $3`,
          [String(data.userId), queue, data.cls],
        );
        waitingAhead = Number(counts.rows[0]?.ahead ?? 0);
      }
      const id = await this.send(db, queue, data, {
        priority: fairPriority(data.cls as JobClass, waitingAhead),
        expireInSeconds: this.expireSeconds(handler),
      });
      await db.executeSql('SELECT pg_notify($1, $2)', [this.wakeChannel, JSON.stringify({ type: 'wake', queue })]);
      return numericId(id);
    };
    return options.trx ? write(options.trx) : this.o.appDb.transaction().execute(write);
  }

  async cancel(kind: string, refId: number): Promise<CancelOutcome> {
    const key = keyOf(kind, refId);
    // Locked while deciding, so no worker takes it between the look and the cancel (SKIP LOCKED).
    const decision = await this.o.appDb.transaction().execute(async (trx) => {
      const db = transactionDb(trx);
      const r = await db.executeSql(
        `SELECT id::text AS id, name, state::text AS state, data FROM ${this.jobTable}
          WHERE singleton_key = $1 AND state < 'completed' ORDER BY created_on DESC LIMIT 1 FOR UPDATE`,
        [key],
      );
      const job = r.rows[0] as { id: string; name: string; state: string; data: JobData } | undefined;
      if (!job) return { outcome: 'not_running' as const };
      if (job.state !== 'active') {
        await this.o.boss.cancel(job.name, job.id, { db });
        return { outcome: 'cancelled' as const, job };
      }
      if (this.active.has(job.id)) return { outcome: 'local' as const, job };
      await this.o.boss.cancel(job.name, job.id, { db });
      await db.executeSql('SELECT pg_notify($1, $2)', [this.wakeChannel, JSON.stringify({ type: 'cancel', id: job.id })]);
      return { outcome: 'requested' as const, job };
    });
    if (decision.outcome === 'not_running') return 'not_running';
    if (decision.outcome === 'cancelled') {
      await this.failRow(decision.job.id, decision.job.data, new ProviderError('cancelled', 'cancelled'), 'cancelled');
      return 'cancelled';
    }
    if (decision.outcome === 'local') {
      const local = this.active.get(decision.job.id);
      if (local) {
        local.controller.abort('cancel' satisfies StopReason);
        await local.done;
      }
      return 'cancelled';
    }
    return 'requested';
  }

  async isActive(kind: string, refId: number): Promise<boolean> {
    const r = await this.o.sql(`SELECT 1 FROM ${this.jobTable} WHERE singleton_key = $1 AND state < 'completed' LIMIT 1`, [
      keyOf(kind, refId),
    ]);
    return r.rows.length > 0;
  }

  onProgress(topic: string, listener: ProgressListener): () => void {
    return this.o.bus.subscribe(topic, listener);
  }

  publish(topic: string, event: Record<string, unknown>): void {
    this.o.bus.publish(topic, event);
  }

  /** Jobs running in this process (tests). */
  get runningCount(): number {
    return this.active.size;
  }

  private async ensureQueue(lane: string): Promise<string> {
    const queue = laneQueue(lane);
    if (!this.queues.has(queue)) {
      await this.createQueueOnce(queue, { name: queue, policy: 'standard', deadLetter: DEAD_QUEUE });
      this.queues.add(queue);
    }
    return queue;
  }

  /**
   * pg-boss makes a table partition per queue; processes creating queues at once (the first jobs
   * of a lane landing on two replicas) deadlock, and one of them was refused (a 500). They take
   * turns under an advisory lock of their own, and a queue another process made is not made again.
   */
  private async createQueueOnce(name: string, options: PgBoss.Queue | Record<string, never>): Promise<void> {
    if (await this.o.boss.getQueue(name)) return;
    const key = `loom-pgboss-queues:${this.o.schema}`;
    await this.o.appDb.connection().execute(async (conn) => {
      await conn.executeQuery(CompiledQuery.raw('SELECT pg_advisory_lock(hashtext($1))', [key]));
      try {
        if (!(await this.o.boss.getQueue(name))) await this.o.boss.createQueue(name, options as PgBoss.Queue);
      } finally {
        await conn.executeQuery(CompiledQuery.raw('SELECT pg_advisory_unlock(hashtext($1))', [key])).catch(() => undefined);
      }
    });
  }

  private async send(
    db: PgBoss.Db,
    queue: string,
    data: JobData,
    o: { priority: number; expireInSeconds: number; startAfter?: Date },
  ): Promise<string> {
    const id = await this.o.boss.send(queue, data as unknown as object, {
      db,
      singletonKey: keyOf(data.kind, data.refId),
      priority: o.priority,
      expireInSeconds: o.expireInSeconds,
      retryLimit: this.o.stallRetryLimit,
      // These retries are only for a worker that died (ours go through replace()): at once.
      retryDelay: 0,
      retryBackoff: false,
      deadLetter: DEAD_QUEUE,
      ...(o.startAfter ? { startAfter: o.startAfter } : {}),
    });
    if (!id) throw new Error(`pg-boss did not write the job of ${keyOf(data.kind, data.refId)}`);
    return id;
  }

  private expireSeconds(handler: JobHandler | undefined): number {
    const runMs = handler ? this.runLimit(handler) : this.o.maxRunMs ?? 600_000;
    return Math.ceil(runMs / 1000) + this.o.expireGraceSeconds;
  }

  private runLimit(handler: JobHandler): number {
    return Math.min(handler.timeoutMs, this.o.maxRunMs ?? Infinity);
  }

  private rowOf(id: string, data: JobData, retryCount: number): JobRow {
    const created = data.createdAt;
    return {
      id: numericId(id),
      kind: data.kind,
      ref_id: data.refId,
      user_id: data.userId,
      params_json: data.params ? JSON.stringify(data.params) : null,
      status: 'running',
      attempts: data.attempt + retryCount + 1,
      next_run_at: created,
      deadline_at: data.deadline,
      lease_owner: this.workerId,
      lease_expires_at: null,
      cancel_requested: 0,
      last_error: data.lastError,
      finished_at: null,
      created_at: created,
      updated_at: iso(this.o.now()),
    };
  }

  private onNotice(payload: string): void {
    let notice: { type?: string; id?: string };
    try {
      notice = JSON.parse(payload) as typeof notice;
    } catch {
      return;
    }
    if (notice.type === 'wake') this.wake();
    if (notice.type === 'cancel' && notice.id) this.active.get(notice.id)?.controller.abort('cancel' satisfies StopReason);
  }

  private wake(): void {
    if (!this.running || !this.o.runsJobs) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((error: unknown) => this.o.log.warn({ err: error }, 'job worker could not read the queues'))
      .finally(() => {
        this.ticking = false;
        if (this.tickAgain) {
          this.tickAgain = false;
          this.wake();
        }
      });
  }

  private async tick(): Promise<void> {
    await this.checkRunning();
    const r = await this.o.sql(`SELECT name FROM "${this.o.schema}".queue WHERE name LIKE '${LANE_QUEUE_PREFIX}%' ORDER BY name`);
    for (const { name } of r.rows as { name: string }[]) {
      if (!this.running) return;
      const lane = name.slice(LANE_QUEUE_PREFIX.length);
      const capacity = this.o.concurrency(lane);
      const free = capacity - (this.lanes.get(lane) ?? 0);
      if (free <= 0) continue;
      // fair-share.ts's reserve: in a lane of two or more slots, batch work leaves some of them to
      // interactive work. Interactive jobs are in a priority band above every batch job, so a
      // fetch takes them first; the reserved slots are fetched for only while one waits.
      const reserve = capacity >= 2 ? DEFAULT_FAIR_SHARE.interactiveReserve : 0;
      const open = Math.max(0, Math.min(free, capacity - reserve - this.batchRunning(lane)));
      // Taken and recorded as this worker's in one transaction.
      const take = (batchSize: number) =>
        this.leases.claim(name, (db) => this.o.boss.fetch<JobData>(name, { batchSize, includeMetadata: true, priority: true, db }));
      const jobs = open > 0 ? await take(open) : [];
      const reserved = Math.min(free - jobs.length, await this.interactiveWaiting(name, free - jobs.length));
      if (reserved > 0) jobs.push(...(await take(reserved)));
      if (!this.running) {
        // Stopped meanwhile: straight back to the queue.
        for (const job of jobs) await this.leases.asOwner(job.id, (db) => this.o.boss.fail(name, job.id, { outcome: 'handed-back' }, { db }));
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
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${this.jobTable}
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
    const states = await this.leases.states(ids);
    for (const id of ids) {
      const job = states.get(id);
      if (job?.state === 'active' && job.owner === this.workerId) continue;
      const cancelled = job?.state === 'cancelled' && job.owner === this.workerId;
      this.active.get(id)?.controller.abort((cancelled ? 'cancel' : 'lost') satisfies StopReason);
    }
  }

  /**
   * Jobs recorded as this worker's that it no longer runs (their end could not be recorded, e.g.
   * while the database restarted): handed back to pg-boss at once, so another run finishes them.
   */
  private async handBackOrphans(): Promise<void> {
    for (const orphan of await this.leases.ownedBesides(new Set(this.active.keys()))) {
      const back = await this.leases.asOwner(orphan.jobId, (db) => this.o.boss.fail(orphan.queue, orphan.jobId, { outcome: 'orphaned' }, { db }));
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

  private launch(job: PgBoss.JobWithMetadata<JobData>, queue: string, lane: string): void {
    const handler = this.handlers.get(job.data.kind);
    if (!handler) {
      void this.leases
        .asOwner(job.id, (db) => this.o.boss.complete(queue, job.id, { outcome: 'failed', error: `no handler for ${job.data.kind}` }, { db }))
        .catch(() => undefined);
      return;
    }
    const row = this.rowOf(job.id, job.data, job.retryCount);
    const controller = new AbortController();
    this.lanes.set(lane, (this.lanes.get(lane) ?? 0) + 1);
    const publish: JobContext['publish'] = (topic, event) => this.o.bus.publish(topic, event);
    const timeout = setTimeout(() => controller.abort('timeout' satisfies StopReason), this.runLimit(handler));
    const aborted = new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve()));
    const done = (async () => {
      let error: unknown;
      let ok = false;
      try {
        await Promise.race([handler.run({ job: row, signal: controller.signal, attempt: row.attempts, publish }), aborted]);
        ok = !controller.signal.aborted;
      } catch (e) {
        error = e;
      } finally {
        clearTimeout(timeout);
      }
      const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
      // The database may be restarting: the end is recorded again a few times before giving up
      // (each try is one transaction, so a failed one left nothing behind). Past that, the job is
      // still this worker's in job_owners but runs nowhere: the next check hands it back.
      for (let tries = 1; ; tries += 1) {
        try {
          await this.settle(job, queue, row, handler, ok, reason, error, publish);
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
      this.lanes.set(lane, (this.lanes.get(lane) ?? 1) - 1);
      this.wake();
    });
    this.active.set(job.id, { id: job.id, queue, key: keyOf(job.data.kind, job.data.refId), lane, cls: job.data.cls, controller, done });
  }

  private async settle(
    job: PgBoss.JobWithMetadata<JobData>,
    queue: string,
    row: JobRow,
    handler: JobHandler,
    ok: boolean,
    reason: StopReason | undefined,
    error: unknown,
    publish: JobContext['publish'],
  ): Promise<void> {
    if (reason === 'crash' || reason === 'lost') return;
    if (reason === 'shutdown') {
      // Not a failure and no retry used: a fresh job of the same attempt another worker takes now.
      await this.replace(job, queue, { ...job.data, attempt: row.attempts - 1 }, 'handed-back');
      return;
    }
    if (ok) {
      const mine = await this.leases.asOwner(job.id, (db) => this.o.boss.complete(queue, job.id, { outcome: 'completed' }, { db }));
      if (!mine) this.o.log.warn({ jobId: job.id, kind: job.data.kind }, 'job result discarded: another worker took the job over');
      return;
    }
    if (reason === 'cancel') {
      const mine = await this.leases.asOwner(job.id, (db) => this.o.boss.cancel(queue, job.id, { db }));
      if (mine) await handler.fail(row, new ProviderError('cancelled', 'cancelled'), 'cancelled', publish);
      return;
    }
    const failure =
      reason === 'timeout'
        ? new ProviderError('timeout', `no answer within ${this.runLimit(handler)} ms`)
        : isDatabaseUnavailable(error)
          ? // The run's own database work met a restart: run it again with the usual backoff.
            new ProviderError('unavailable', `the database did not answer: ${error instanceof Error ? error.message : String(error)}`, {
              cause: error,
            })
          : error;
    const text = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
    if (failure instanceof ProviderError && failure.retryable) {
      const wait = retryDelayMs(row.attempts, failure.retryAfterMs, this.o.backoff);
      const nextRun = new Date(this.o.now().getTime() + wait);
      if (iso(nextRun) <= job.data.deadline) {
        const replaced = await this.replace(job, queue, { ...job.data, attempt: row.attempts, lastError: text }, 'retried', nextRun);
        if (replaced) {
          this.o.log.info({ jobId: job.id, kind: job.data.kind, waitMs: wait, err: text }, 'job will be retried');
          await handler.retrying?.(row, failure, wait, publish);
          setTimeout(() => this.wake(), wait + 5).unref();
        }
        return;
      }
    }
    if (!(failure instanceof ProviderError)) this.o.log.error({ err: failure, jobId: job.id, kind: job.data.kind }, 'job failed');
    const mine = await this.leases.asOwner(job.id, (db) => this.o.boss.complete(queue, job.id, { outcome: 'failed', error: text }, { db }));
    if (mine && affected(mine.value)) await handler.fail(row, failure, 'error', publish);
  }


  /** Completes this attempt and sends the next one in one transaction; false when the job was no longer ours. */
  private async replace(
    job: PgBoss.JobWithMetadata<JobData>,
    queue: string,
    data: JobData,
    outcome: string,
    startAfter?: Date,
  ): Promise<boolean> {
    const handler = this.handlers.get(data.kind);
    // Only as the job's owner: a worker that lost it sends no second job.
    const mine = await this.leases.asOwner(job.id, async (db) => {
      const r = await this.o.boss.complete(queue, job.id, { outcome }, { db });
      if (!affected(r)) return false;
      await this.send(db, queue, data, {
        priority: job.priority,
        expireInSeconds: this.expireSeconds(handler),
        ...(startAfter ? { startAfter } : {}),
      });
      await db.executeSql('SELECT pg_notify($1, $2)', [this.wakeChannel, JSON.stringify({ type: 'wake', queue })]);
      return true;
    });
    return mine?.value ?? false;
  }

  private async failRow(id: string, data: JobData, error: unknown, reason: FailReason): Promise<void> {
    const handler = this.handlers.get(data.kind);
    try {
      await handler?.fail(this.rowOf(id, data, 0), error, reason, (topic, event) => this.o.bus.publish(topic, event));
    } catch (e) {
      this.o.log.error({ err: e, jobId: id }, 'could not record the end of a job');
    }
  }
}

/** pg-boss 10's complete() answers { affected } though its types say void. */
function affected(result: unknown): boolean {
  return typeof result === 'object' && result !== null && Number((result as { affected?: unknown }).affected) > 0;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
