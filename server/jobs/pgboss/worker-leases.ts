// Fast recovery from a dead worker in team mode, on our own heartbeat rather than pg-boss's expiry
// (which notices a dead worker only once a job's run limit and grace have passed: minutes).
//
// - Every process that runs jobs keeps a row in `workers` (seen_at every heartbeatMs).
// - A job is taken (pg-boss fetch) and its owner written to `job_owners` in one transaction, so an
//   active job always has an owner.
// - Every process (API replicas too) sweeps every sweepMs: under a transaction-level advisory lock
//   (one sweeper acts at a time; the others skip that round), the active jobs whose owner's
//   heartbeat is older than staleMs (or gone) are failed in pg-boss — its retry, at once — and
//   their owner rows removed; the workers are woken so one takes them now.
// - A worker settles a job (complete, fail, retry, hand back) only as its owner: in one
//   transaction it deletes its owner row and acts; when the row is not its own any more (it was
//   swept while this worker was only slow) nothing is done and its result is discarded. It also
//   notices on its next poll (the owner differs) and aborts the run, so a job never runs to the
//   end on two workers.
// pg-boss's expiry stays the last resort (a job whose owner row is somehow missing).
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Db, PgBoss } from 'pg-boss';
import type { Database } from '../../db/schema.js';

export interface WorkerLeaseOptions {
  appDb: Kysely<Database>;
  boss: PgBoss;
  /** pg-boss's schema. */
  schema: string;
  workerId: string;
  now: () => Date;
  log: FastifyBaseLogger;
  /** This process runs jobs: it keeps a heartbeat. Every process sweeps. */
  runsJobs: boolean;
  heartbeatMs: number;
  /** A heartbeat older than this counts its worker as gone. */
  staleMs: number;
  sweepMs: number;
  /** Statements in the caller's transaction (pg-boss's `db` option). */
  transactionDb: (trx: Transaction<Database>) => Db;
  /** Called after a sweep handed jobs back (wakes the workers). */
  onRecovered: (queues: string[]) => Promise<void>;
}

export interface OwnedState {
  state: string;
  owner: string | null;
}

export const DEFAULT_LEASES = { heartbeatMs: 10_000, staleMs: 30_000, sweepMs: 10_000 };

export class WorkerLeases {
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  /** When this worker's heartbeat was last written (ms). */
  private lastBeat = 0;
  private readonly jobTable: string;

  constructor(private readonly o: WorkerLeaseOptions) {
    this.jobTable = `"${o.schema}".job`;
  }

  async start(): Promise<void> {
    if (this.o.runsJobs) {
      // Written before the first job is taken: an owner row never points at a worker without one.
      await this.beat();
      this.heartbeatTimer = setInterval(() => void this.beat().catch((e: unknown) => this.warn(e, 'job worker heartbeat failed')), this.o.heartbeatMs);
      this.heartbeatTimer.unref();
    }
    this.sweepTimer = setInterval(() => void this.sweep().catch((e: unknown) => this.warn(e, 'dead worker sweep failed')), this.o.sweepMs);
    this.sweepTimer.unref();
  }

  /** Stops the timers; with `forget`, removes this worker's row (after its jobs were handed back). */
  async stop(forget: boolean): Promise<void> {
    clearInterval(this.heartbeatTimer);
    clearInterval(this.sweepTimer);
    if (forget && this.o.runsJobs) {
      await this.run(`DELETE FROM workers WHERE worker_id = $1`, [this.o.workerId]).catch(() => undefined);
    }
  }

  /** Its heartbeat (a worker with upscale engines adds its slots and models to the same row). */
  async beat(): Promise<void> {
    await this.run(
      `INSERT INTO workers (worker_id, slots, models_json, seen_at) VALUES ($1, 0, '[]', $2)
       ON CONFLICT (worker_id) DO UPDATE SET seen_at = excluded.seen_at`,
      [this.o.workerId, this.o.now().toISOString()],
    );
    this.lastBeat = this.o.now().getTime();
  }

  /** Takes jobs with `fetch` and records this worker as their owner, in one transaction. */
  async claim<T extends { id: string }>(queue: string, fetch: (db: Db) => Promise<T[]>): Promise<T[]> {
    // A worker whose heartbeat has lapsed counts as gone to the others, and its jobs are being
    // handed back: it takes nothing until its heartbeat is written again (else it could take back,
    // at once, the very job just handed on, and lose it again at the next sweep).
    if (this.o.runsJobs && this.o.now().getTime() - this.lastBeat > this.o.staleMs) return [];
    return this.o.appDb.transaction().execute(async (trx) => {
      const db = this.o.transactionDb(trx);
      const jobs = await fetch(db);
      if (jobs.length === 0) return jobs;
      const at = this.o.now().toISOString();
      await db.executeSql(
        `INSERT INTO job_owners (job_id, worker_id, queue, started_at)
           SELECT id, $2, $3, $4 FROM unnest($1::text[]) AS id
         ON CONFLICT (job_id) DO UPDATE SET worker_id = excluded.worker_id, queue = excluded.queue, started_at = excluded.started_at`,
        [jobs.map((j) => j.id), this.o.workerId, queue, at],
      );
      return jobs;
    });
  }

  /**
   * Runs `act` in a transaction only while this worker owns the job, and gives the ownership up in
   * it. Undefined when the job is no longer this worker's (swept, and maybe taken by another).
   */
  async asOwner<T>(jobId: string, act: (db: Db, trx: Transaction<Database>) => Promise<T>): Promise<{ value: T } | undefined> {
    return this.o.appDb.transaction().execute(async (trx) => {
      const db = this.o.transactionDb(trx);
      const mine = await db.executeSql(`DELETE FROM job_owners WHERE job_id = $1 AND worker_id = $2 RETURNING job_id`, [
        jobId,
        this.o.workerId,
      ]);
      if (mine.rows.length === 0) return undefined;
      return { value: await act(db, trx) };
    });
  }

  /** The state and owner of these jobs (a worker's check of the ones it runs). */
  async states(ids: string[]): Promise<Map<string, OwnedState>> {
    const r = await this.run<{ id: string; state: string; owner: string | null }>(
      `SELECT j.id::text AS id, j.state::text AS state, o.worker_id AS owner
         FROM ${this.jobTable} j LEFT JOIN job_owners o ON o.job_id = j.id::text
        WHERE j.id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(r.map((row) => [row.id, { state: row.state, owner: row.owner }]));
  }

  /** Jobs recorded as this worker's besides `running` (the ones it runs). */
  async ownedBesides(running: Set<string>): Promise<{ jobId: string; queue: string }[]> {
    const rows = await this.run<{ job_id: string; queue: string }>(`SELECT job_id, queue FROM job_owners WHERE worker_id = $1`, [
      this.o.workerId,
    ]);
    return rows.filter((r) => !running.has(r.job_id)).map((r) => ({ jobId: r.job_id, queue: r.queue }));
  }

  get owner(): string {
    return this.o.workerId;
  }

  /**
   * Hands the active jobs of workers whose heartbeat is older than staleMs back to pg-boss (its
   * retry) and removes the owner rows of jobs no longer active. Answers how many were handed back;
   * 0 when another process is sweeping right now.
   */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      const staleBefore = new Date(this.o.now().getTime() - this.o.staleMs).toISOString();
      const { count, queues } = await this.o.appDb.transaction().execute(async (trx) => {
        const db = this.o.transactionDb(trx);
        const lock = await db.executeSql('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [`loom-worker-sweep:${this.o.schema}`]);
        if (lock.rows[0]?.ok !== true) return { count: 0, queues: [] as string[] };
        // SKIP LOCKED: a worker settling its job right now holds its owner row; that job is not lost.
        const lost = await db.executeSql(
          `SELECT o.job_id, j.name, o.worker_id FROM job_owners o
             JOIN ${this.jobTable} j ON j.id = o.job_id::uuid
             LEFT JOIN workers w ON w.worker_id = o.worker_id
            WHERE j.state = 'active' AND (w.seen_at IS NULL OR w.seen_at < $1)
            FOR UPDATE OF o SKIP LOCKED`,
          [staleBefore],
        );
        const rows = lost.rows as { job_id: string; name: string; worker_id: string }[];
        const byQueue = new Map<string, string[]>();
        for (const row of rows) byQueue.set(row.name, [...(byQueue.get(row.name) ?? []), row.job_id]);
        for (const [queue, ids] of byQueue) {
          // One call per job: pg-boss's types know no output with a list of ids.
          for (const id of ids) await this.o.boss.fail(queue, id, { outcome: 'worker-lost', sweptBy: this.o.workerId }, { db });
        }
        if (rows.length > 0) {
          await db.executeSql('DELETE FROM job_owners WHERE job_id = ANY($1::text[])', [rows.map((r) => r.job_id)]);
          this.o.log.warn(
            { jobs: rows.map((r) => r.job_id), workers: [...new Set(rows.map((r) => r.worker_id))] },
            'jobs of a worker whose heartbeat stopped were handed back to the queue',
          );
        }
        // Owner rows of jobs that ended without their owner settling them (expired, deleted).
        // Only old ones: a row a worker is writing right now (its job just taken) is never touched.
        await db.executeSql(
          `DELETE FROM job_owners o WHERE o.started_at < $1 AND NOT EXISTS (
             SELECT 1 FROM ${this.jobTable} j WHERE j.id = o.job_id::uuid AND j.state = 'active')`,
          [staleBefore],
        );
        return { count: rows.length, queues: [...byQueue.keys()] };
      });
      if (count > 0) await this.o.onRecovered(queues);
      return count;
    } finally {
      this.sweeping = false;
    }
  }

  private async run<R = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
    const r = await this.o.appDb.executeQuery<R>(CompiledQuery.raw(text, values));
    return r.rows as R[];
  }

  private warn(error: unknown, message: string): void {
    this.o.log.warn({ err: error }, message);
  }
}
