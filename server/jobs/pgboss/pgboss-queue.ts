// The JobQueue of team mode on pg-boss 12 (PostgreSQL, SKIP LOCKED), shared by any number of API
// replicas and workers. What a job is in pg-boss: lane-jobs.ts; how a worker takes, runs and
// settles jobs: pgboss-worker.ts; how a dead worker's jobs are noticed and handed on:
// worker-leases.ts. This file is what the modules call:
//
// - enqueue: in one transaction (the caller's, or one of its own) an advisory lock on kind+row,
//   a look for an unfinished job of that row (singletonKey `kind:refId`), the waiting rank, then
//   pg-boss's send() over that same transaction (its `db` option) and a NOTIFY that wakes the
//   workers at commit. A rolled-back transaction leaves no job; a resend finds the first job.
// - cancel: a waiting job is cancelled in pg-boss and its row failed at once; a running one is
//   cancelled in pg-boss and the worker running it is told by NOTIFY (and sees the state on its
//   next check if the notification was missed).
// - a worker that dies is noticed by its heartbeat (worker-leases.ts): once it is older than
//   staleMs, any process's sweep fails its active jobs in pg-boss (the engine's retry, at once) and
//   another worker runs them. pg-boss's expiry stays the last resort.
import { randomBytes } from 'node:crypto';
import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ProviderError } from '../../providers/capabilities.js';
import type { JobHandler } from '../job-handler.js';
import type { JobCancelOutcome, EnqueueOptions, EnqueueRequest, JobQueue, ProgressListener } from '../job-queue.js';
import { waitingCapRefusal, DEFAULT_FAIR_SHARE, type JobClass } from '../fair-share.js';
import { fairPriority } from './fair-priority.js';
import { DEAD_QUEUE, keyOf, LANE_QUEUE_PREFIX, LaneJobs, numericId, transactionDb, type JobData } from './lane-jobs.js';
import type { PgBossQueueOptions } from './pgboss-options.js';
import { PgBossWorker } from './pgboss-worker.js';
import { DEFAULT_LEASES, WorkerLeases } from './worker-leases.js';

/**
 * A job of a lane queue. A row's jobs are found by singletonKey in these only: pg-boss 12 copies a
 * job's singletonKey into its dead-letter copy, which is not a run of the row.
 */
const LANE_JOB = `name LIKE '${LANE_QUEUE_PREFIX}%'`;

export class PgBossQueue implements JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly workerId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly lanes: LaneJobs;
  private readonly leases: WorkerLeases;
  private readonly worker: PgBossWorker;
  private started = false;
  private unlisten: (() => void) | undefined;

  constructor(private readonly o: PgBossQueueOptions) {
    this.lanes = new LaneJobs({
      boss: o.boss,
      appDb: o.appDb,
      schema: o.schema,
      workerId: this.workerId,
      now: o.now,
      maxRunMs: o.maxRunMs,
      expireGraceSeconds: o.expireGraceSeconds,
      stallRetryLimit: o.stallRetryLimit,
    });
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
        for (const queue of queues) await this.lanes.notifyWake({ executeSql: this.o.sql }, queue);
      },
    });
    this.worker = new PgBossWorker({ ...o, lanes: this.lanes, leases: this.leases, handlers: this.handlers });
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
    if (this.started) return;
    await this.lanes.createQueueOnce(DEAD_QUEUE, {});
    this.unlisten = await this.o.listener.listen(this.lanes.wakeChannel, (payload) => this.onNotice(payload));
    await this.leases.start();
    this.started = true;
    this.worker.start();
  }

  /** Stops taking jobs and hands the running ones back so another worker resumes them at once. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.unlisten?.();
    const handedBack = await this.worker.stop();
    // Its row goes only when every job was handed back; else the sweep hands back the rest.
    await this.leases.stop(handedBack);
  }

  /** A process that dies: nothing is settled or handed back (tests; the engine's expiry recovers). */
  abandon(): void {
    this.started = false;
    void this.leases.stop(false);
    this.unlisten?.();
    this.worker.abandon();
  }

  /** The shared rule of fair-share.ts: the user's waiting jobs of this kind's class, across every lane. */
  async admit(userId: number, kind: string, count = 1): Promise<void> {
    const r = await this.o.appDb.executeQuery<{ waiting: string | number }>(
      CompiledQuery.raw(
        `SELECT count(*) AS waiting FROM ${this.lanes.jobTable}
          WHERE ${LANE_JOB} AND state < 'active' AND data->>'userId' = $1 AND data->>'cls' = $2`,
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
      cls: request.jobClass ?? this.classOf(request.kind),
      attempt: 0,
      deadline: new Date(now.getTime() + (request.budgetMs ?? this.o.budgetMs)).toISOString(),
      createdAt: now.toISOString(),
      lastError: null,
    };
    const lane = handler ? handler.lane(this.lanes.rowOf('00000000-0000', data, 0)) : 'none';
    const queue = await this.lanes.ensureQueue(lane);
    const write = async (trx: Transaction<Database>) => {
      const db = transactionDb(trx);
      const key = keyOf(request.kind, request.refId);
      // Two replicas enqueueing the same row wait for each other here; the second finds the first's job.
      await db.executeSql('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.o.schema}:${key}`]);
      const existing = await db.executeSql(
        `SELECT id::text AS id FROM ${this.lanes.jobTable} WHERE ${LANE_JOB} AND singleton_key = $1 AND state < 'completed' LIMIT 1`,
        [key],
      );
      if (existing.rows[0]) return numericId(String(existing.rows[0].id));
      let waitingAhead = 0;
      if (data.userId !== null) {
        // The cap is checked by admit() before the rows are made; here only the rank matters.
        const counts = await db.executeSql(
          `SELECT count(*) AS ahead FROM ${this.lanes.jobTable}
            WHERE name = $2 AND state < 'active' AND data->>'userId' = $1 AND data->>'cls' = $3`,
          [String(data.userId), queue, data.cls],
        );
        waitingAhead = Number(counts.rows[0]?.ahead ?? 0);
      }
      const id = await this.lanes.send(db, queue, data, { priority: fairPriority(data.cls as JobClass, waitingAhead), handler });
      await this.lanes.notifyWake(db, queue);
      return numericId(id);
    };
    return options.trx ? write(options.trx) : this.o.appDb.transaction().execute(write);
  }

  async cancel(kind: string, refId: number): Promise<JobCancelOutcome> {
    const key = keyOf(kind, refId);
    // Locked while deciding, so no worker takes it between the look and the cancel (SKIP LOCKED).
    const decision = await this.o.appDb.transaction().execute(async (trx) => {
      const db = transactionDb(trx);
      const r = await db.executeSql(
        `SELECT id::text AS id, name, state::text AS state, data FROM ${this.lanes.jobTable}
          WHERE ${LANE_JOB} AND singleton_key = $1 AND state < 'completed' ORDER BY created_on DESC LIMIT 1 FOR UPDATE`,
        [key],
      );
      const job = r.rows[0] as { id: string; name: string; state: string; data: JobData } | undefined;
      if (!job) return { outcome: 'not_running' as const };
      if (job.state !== 'active') {
        await this.o.boss.cancel(job.name, job.id, { db });
        return { outcome: 'cancelled' as const, job };
      }
      if (this.worker.runsHere(job.id)) return { outcome: 'local' as const, job };
      await this.o.boss.cancel(job.name, job.id, { db });
      await db.executeSql('SELECT pg_notify($1, $2)', [this.lanes.wakeChannel, JSON.stringify({ type: 'cancel', id: job.id })]);
      return { outcome: 'requested' as const, job };
    });
    if (decision.outcome === 'not_running') return 'not_running';
    if (decision.outcome === 'cancelled') {
      await this.worker.failRow(decision.job.id, decision.job.data, new ProviderError('cancelled', 'cancelled'), 'cancelled');
      return 'cancelled';
    }
    if (decision.outcome === 'local') {
      await this.worker.cancelHere(decision.job.id);
      return 'cancelled';
    }
    return 'requested';
  }

  async isActive(kind: string, refId: number): Promise<boolean> {
    const r = await this.o.sql(`SELECT 1 FROM ${this.lanes.jobTable} WHERE ${LANE_JOB} AND singleton_key = $1 AND state < 'completed' LIMIT 1`, [
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
    return this.worker.runningCount;
  }

  private onNotice(payload: string): void {
    let notice: { type?: string; id?: string };
    try {
      notice = JSON.parse(payload) as typeof notice;
    } catch {
      return;
    }
    if (notice.type === 'wake') this.worker.wake();
    if (notice.type === 'cancel' && notice.id) void this.worker.cancelHere(notice.id);
  }
}
