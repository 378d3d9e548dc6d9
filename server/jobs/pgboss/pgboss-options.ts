// The settings of team mode's job queue on pg-boss, read by the queue (pgboss-queue.ts), its
// workers (pgboss-worker.ts) and the engine that builds them (team-engine.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../../db/schema.js';
import type { BackoffOptions } from '../backoff.js';
import type { PgListener } from '../pg-listener.js';
import type { PgProgressBus, SqlExecutor } from '../pg-progress-bus.js';

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
