// What a job is in pg-boss, in team mode: one pg-boss queue per lane (provider), `loom-lane-<lane>`,
// a job's data (JobData) carrying what the runner's jobs table keeps in columns, and its
// singletonKey `kind:refId` (one unfinished job per row). Jobs are sent with pg-boss's own retry
// kept for a worker that died mid-job (expiry): our retries are new jobs (pgboss-worker.ts), and
// when the engine's retries run out the job goes to the dead-letter queue.
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Db, PgBoss, Queue } from 'pg-boss';
import type { Database } from '../../db/schema.js';
import type { JobHandler } from '../job-handler.js';
import type { JobRow } from '../job-table.js';

export const LANE_QUEUE_PREFIX = 'loom-lane-';
export const DEAD_QUEUE = 'loom-dead';

export interface JobData {
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

export const keyOf = (kind: string, refId: number) => `${kind}:${refId}`;
/** pg-boss ids are UUIDs; the interface speaks numbers: the first 48 bits, stable for logs. */
export const numericId = (uuid: string) => parseInt(uuid.replace(/-/g, '').slice(0, 12), 16);
export const laneQueue = (lane: string) => `${LANE_QUEUE_PREFIX}${lane.replace(/[^A-Za-z0-9-]/g, '_')}`;

/** pg-boss's executeSql over a Kysely transaction, so its statements join the caller's work. */
export function transactionDb(trx: Transaction<Database>): Db {
  return {
    executeSql: async (text, values) => {
      const r = await trx.executeQuery(CompiledQuery.raw(text, values));
      return { rows: r.rows as Record<string, unknown>[] };
    },
  };
}

/**
 * How many jobs a complete() changed: pg-boss answers { jobs, requested, affected }, but its types
 * mark those fields internal (CommandResponse is empty in its declarations).
 */
export function affected(result: unknown): boolean {
  return typeof result === 'object' && result !== null && Number((result as { affected?: unknown }).affected) > 0;
}

export interface LaneJobsOptions {
  boss: PgBoss;
  appDb: Kysely<Database>;
  /** pg-boss's schema. */
  schema: string;
  /** This process: the lease owner of the rows its handlers see. */
  workerId: string;
  now: () => Date;
  maxRunMs?: number;
  /** Added to a run's time limit to make its pg-boss expiry (a worker that died is noticed then). */
  expireGraceSeconds: number;
  /** Engine retries after a worker died mid-job. */
  stallRetryLimit: number;
}

export class LaneJobs {
  /** pg-boss's job table. */
  readonly jobTable: string;
  /** The channel that wakes the workers (a job was sent) or tells one a job was cancelled. */
  readonly wakeChannel: string;
  private readonly queues = new Set<string>();

  constructor(private readonly o: LaneJobsOptions) {
    this.jobTable = `"${o.schema}".job`;
    this.wakeChannel = `loom_jobs_${o.schema}`.slice(0, 63);
  }

  /** The lane's queue, made on first use. */
  async ensureQueue(lane: string): Promise<string> {
    const queue = laneQueue(lane);
    if (!this.queues.has(queue)) {
      await this.createQueueOnce(queue, { policy: 'standard', deadLetter: DEAD_QUEUE });
      this.queues.add(queue);
    }
    return queue;
  }

  /**
   * pg-boss makes a table partition per queue; processes creating queues at once (the first jobs
   * of a lane landing on two replicas) deadlock, and one of them would be refused (a 500). They
   * take turns under an advisory lock of their own, and a queue another process made is not made again.
   */
  async createQueueOnce(name: string, options: Omit<Queue, 'name'>): Promise<void> {
    if (await this.o.boss.getQueue(name)) return;
    const key = `loom-pgboss-queues:${this.o.schema}`;
    await this.o.appDb.connection().execute(async (conn) => {
      await conn.executeQuery(CompiledQuery.raw('SELECT pg_advisory_lock(hashtext($1))', [key]));
      try {
        if (!(await this.o.boss.getQueue(name))) await this.o.boss.createQueue(name, options);
      } finally {
        await conn.executeQuery(CompiledQuery.raw('SELECT pg_advisory_unlock(hashtext($1))', [key])).catch(() => undefined);
      }
    });
  }

  /** Writes a job over `db` (a transaction's); answers its pg-boss id. */
  async send(
    db: Db,
    queue: string,
    data: JobData,
    o: { priority: number; handler: JobHandler | undefined; startAfter?: Date },
  ): Promise<string> {
    const id = await this.o.boss.send(queue, data as unknown as object, {
      db,
      singletonKey: keyOf(data.kind, data.refId),
      priority: o.priority,
      expireInSeconds: this.expireSeconds(o.handler),
      retryLimit: this.o.stallRetryLimit,
      // These retries are only for a worker that died (ours are new jobs): at once.
      retryDelay: 0,
      retryBackoff: false,
      deadLetter: DEAD_QUEUE,
      ...(o.startAfter ? { startAfter: o.startAfter } : {}),
    });
    if (!id) throw new Error(`pg-boss did not write the job of ${keyOf(data.kind, data.refId)}`);
    return id;
  }

  /** Wakes the workers at commit of `db`'s transaction: a job waits in `queue`. */
  async notifyWake(db: Db, queue: string): Promise<void> {
    await db.executeSql('SELECT pg_notify($1, $2)', [this.wakeChannel, JSON.stringify({ type: 'wake', queue })]);
  }

  runLimit(handler: JobHandler): number {
    return Math.min(handler.timeoutMs, this.o.maxRunMs ?? Infinity);
  }

  /** The row a handler sees for a pg-boss job (the runner's jobs-table shape). */
  rowOf(id: string, data: JobData, retryCount: number): JobRow {
    const created = data.createdAt;
    return {
      id: numericId(id),
      kind: data.kind,
      ref_id: data.refId,
      user_id: data.userId,
      params_json: data.params ? JSON.stringify(data.params) : null,
      job_class: data.cls === 'batch' ? 'batch' : 'interactive',
      status: 'running',
      attempts: data.attempt + retryCount + 1,
      next_run_at: created,
      deadline_at: data.deadline,
      lease_owner: this.o.workerId,
      lease_expires_at: null,
      cancel_requested: 0,
      last_error: data.lastError,
      finished_at: null,
      created_at: created,
      updated_at: this.o.now().toISOString(),
    };
  }

  private expireSeconds(handler: JobHandler | undefined): number {
    const runMs = handler ? this.runLimit(handler) : this.o.maxRunMs ?? 600_000;
    return Math.ceil(runMs / 1000) + this.o.expireGraceSeconds;
  }
}
