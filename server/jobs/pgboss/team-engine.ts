// Team mode's job engine for one process: a small pool of its own, pg-boss 12 on it (schema
// PGBOSS_SCHEMA), the listener connection, the progress bus across processes and the queue.
// API replicas start it without workers; workers with them.
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { JobHandler } from '../job-handler.js';
import type { JobCancelOutcome, EnqueueOptions, EnqueueRequest, ProgressListener } from '../job-queue.js';
import { PgListener } from '../pg-listener.js';
import { PgProgressBus, type SqlExecutor } from '../pg-progress-bus.js';
import { DEFAULT_FAIR_SHARE } from '../fair-share.js';
import type { PgBossQueueOptions } from './pgboss-options.js';
import { PgBossQueue } from './pgboss-queue.js';

/** pg-boss 11's schema version: the oldest that pg-boss 12 migrates (10's, 24, it does not). */
const FIRST_MIGRATABLE_SCHEMA = 25;

/** The queue's settings (pgboss-queue.ts), the engine's defaults for the optional ones, and its connection. */
export interface TeamEngineOptions
  extends Pick<
      PgBossQueueOptions,
      | 'appDb'
      | 'log'
      | 'now'
      | 'runsJobs'
      | 'concurrency'
      | 'pollMs'
      | 'budgetMs'
      | 'backoff'
      | 'maxRunMs'
      | 'heartbeatMs'
      | 'sweepMs'
      | 'workerStaleMs'
    >,
    Partial<Pick<PgBossQueueOptions, 'expireGraceSeconds' | 'stallRetryLimit' | 'maxWaitingPerUser'>> {
  url: string;
  /** pg-boss's schema (and the namespace of the notification channels). */
  schema: string;
  /**
   * How often pg-boss looks for expired jobs (a dead worker's job is run again after expiry + this).
   * pg-boss 12 does that in its supervise pass (superviseIntervalSeconds), once per queue per
   * monitorIntervalSeconds; its own maintenanceIntervalSeconds now paces only the deletion of old jobs.
   */
  maintenanceIntervalSeconds?: number;
  poolSize?: number;
}

export class TeamJobEngine {
  readonly pool: pg.Pool;
  readonly boss: PgBoss;
  readonly listener: PgListener;
  readonly bus: PgProgressBus;
  readonly queue: PgBossQueue;
  private started = false;

  constructor(private readonly o: TeamEngineOptions) {
    this.pool = new pg.Pool({ connectionString: o.url, max: o.poolSize ?? 5, application_name: 'loom-jobs' });
    // A pool whose connection drops (database restart) reports it here instead of crashing the process.
    this.pool.on('error', (error) => o.log.warn({ err: error }, 'job engine pool lost a connection'));
    // A lent-out connection has no pool listener; its 'error' must not end the process either.
    this.pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const sql: SqlExecutor = async (text, values) => {
      // pg answers a text of several statements (pg-boss 12's maintenance sends such) with one result
      // per statement: their rows together, as pg-boss's own pool gives them.
      const r: pg.QueryResult | pg.QueryResult[] = await this.pool.query(text, values);
      return { rows: (Array.isArray(r) ? r.flatMap((one) => one.rows ?? []) : r.rows) as Record<string, unknown>[] };
    };
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => sql(text, values) },
      schema: o.schema,
      migrate: true,
      supervise: true,
      schedule: false,
      superviseIntervalSeconds: o.maintenanceIntervalSeconds ?? 30,
      monitorIntervalSeconds: o.maintenanceIntervalSeconds ?? 30,
    });
    this.boss.on('error', (error) => o.log.warn({ err: error }, 'pg-boss reported an error'));
    this.listener = new PgListener({ connectionString: o.url, warn: (message, error) => o.log.warn({ err: error }, message) });
    this.bus = new PgProgressBus({ sql, listener: this.listener, schema: o.schema, log: o.log });
    this.queue = new PgBossQueue({
      boss: this.boss,
      sql,
      appDb: o.appDb,
      listener: this.listener,
      bus: this.bus,
      schema: o.schema,
      now: o.now,
      log: o.log,
      runsJobs: o.runsJobs,
      concurrency: o.concurrency,
      pollMs: o.pollMs,
      budgetMs: o.budgetMs,
      backoff: o.backoff,
      maxRunMs: o.maxRunMs,
      expireGraceSeconds: o.expireGraceSeconds ?? 60,
      stallRetryLimit: o.stallRetryLimit ?? 3,
      maxWaitingPerUser: o.maxWaitingPerUser ?? DEFAULT_FAIR_SHARE.maxWaitingPerUser,
      ...(o.heartbeatMs !== undefined ? { heartbeatMs: o.heartbeatMs } : {}),
      ...(o.sweepMs !== undefined ? { sweepMs: o.sweepMs } : {}),
      ...(o.workerStaleMs !== undefined ? { workerStaleMs: o.workerStaleMs } : {}),
    });
  }

  register(handler: JobHandler): void {
    this.queue.register(handler);
  }

  /** This process in the workers table, and the owner of the jobs it runs. */
  get workerId(): string {
    return this.queue.id;
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.installOnce();
    await this.listener.start();
    await this.bus.start();
    await this.queue.start();
    this.started = true;
  }

  /** Hands running jobs back, then closes the engine's connections. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.queue.stop();
    await this.bus.stop();
    await this.boss.stop({ graceful: false, close: false });
    await this.listener.stop();
    await this.pool.end();
  }

  /** Like a process killed mid-work: nothing is handed back or settled; connections just close. */
  async crash(): Promise<void> {
    this.started = false;
    this.queue.abandon();
    await this.boss.stop({ graceful: false, close: false }).catch(() => undefined);
    await this.listener.stop();
    await this.pool.end().catch(() => undefined);
  }

  admit(userId: number, kind: string, count?: number): Promise<void> {
    return this.queue.admit(userId, kind, count);
  }

  enqueue(request: EnqueueRequest, options?: EnqueueOptions): Promise<number> {
    return this.queue.enqueue(request, options);
  }

  cancel(kind: string, refId: number): Promise<JobCancelOutcome> {
    return this.queue.cancel(kind, refId);
  }

  isActive(kind: string, refId: number): Promise<boolean> {
    return this.queue.isActive(kind, refId);
  }

  onProgress(topic: string, listener: ProgressListener): () => void {
    return this.queue.onProgress(topic, listener);
  }

  publish(topic: string, event: Record<string, unknown>): void {
    this.queue.publish(topic, event);
  }

  /**
   * pg-boss creates its schema on start; two processes starting on a fresh database at once would
   * both try, so they take turns on a lock of their own (the second finds it installed). A schema
   * pg-boss 10 made is refused with what to do: pg-boss 12 migrates only from 11's schema on.
   */
  private async installOnce(): Promise<void> {
    const client = new pg.Client({ connectionString: this.o.url, application_name: 'loom-jobs-install' });
    // Held while pg-boss installs: a database that goes away meanwhile fails the start, not the process.
    client.on('error', (error) => this.o.log.warn({ err: error }, 'job engine install connection lost'));
    await client.connect();
    const key = `loom-pgboss-install:${this.o.schema}`;
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      const version = (await this.boss.isInstalled()) ? await this.boss.schemaVersion() : null;
      if (version !== null && version < FIRST_MIGRATABLE_SCHEMA) {
        throw new Error(
          `PGBOSS_SCHEMA "${this.o.schema}" holds the job queue of pg-boss 10 (schema version ${version}), which pg-boss 12 cannot upgrade: ` +
            'let the workers of the previous release finish its jobs, then drop that schema or set a new PGBOSS_SCHEMA ' +
            '(README, "Running for a team", "Upgrading from pg-boss 10")',
        );
      }
      await this.boss.start();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
      await client.end();
    }
  }
}
