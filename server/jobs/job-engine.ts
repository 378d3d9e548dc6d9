// Which job engine a process runs, from its settings: the in-process runner on the app's database
// (the embedded default, exactly as before), or pg-boss on PostgreSQL in team mode. Either is a
// JobQueue the modules use, plus register/start/stop for the app.
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { JobHandler } from './job-handler.js';
import type { JobQueue } from './job-queue.js';
import { DEFAULT_RUNNER_OPTIONS, JobRunner, LOCAL_VIDEO_LANE, type JobRunnerOptions } from './job-runner.js';
import type { JobDb } from './job-table.js';
import { installationId } from './lease-owner.js';
import { TeamJobEngine, type TeamEngineOptions } from './pgboss/team-engine.js';

export interface JobEngine extends JobQueue {
  register(handler: JobHandler): void;
  start(): void | Promise<void>;
  stop(): Promise<void>;
  /** Team mode: this process's row in the workers table (its heartbeat) and the owner of its jobs. */
  readonly workerId?: string;
}

/** Settings tests change: the runner's, and team mode's expiry and maintenance pace. */
export type RunnerOverrides = Partial<Omit<JobRunnerOptions, 'db' | 'now' | 'log'>>;
export type TeamOverrides = Partial<
  Pick<TeamEngineOptions, 'maintenanceIntervalSeconds' | 'expireGraceSeconds' | 'stallRetryLimit' | 'heartbeatMs' | 'sweepMs' | 'workerStaleMs'>
>;

/**
 * lane → limit from JOB_CONCURRENCY, falling back to '*' and then to the runner's defaults. `*` is
 * every other provider: the built-in engine's video lane keeps its one slot unless named, since
 * more videos at once would only wait for its one renderer.
 */
export function concurrencyFrom(limits: Record<string, number> | undefined): (lane: string) => number {
  if (!limits) return DEFAULT_RUNNER_OPTIONS.concurrency;
  return (lane) => limits[lane] ?? (lane === LOCAL_VIDEO_LANE ? undefined : limits['*']) ?? DEFAULT_RUNNER_OPTIONS.concurrency(lane);
}

export function createJobEngine(o: {
  config: AppConfig;
  db: Db;
  jobDb: JobDb;
  log: FastifyBaseLogger;
  now: () => Date;
  runner?: RunnerOverrides;
  team?: TeamOverrides;
}): JobEngine {
  const settings = {
    ...DEFAULT_RUNNER_OPTIONS,
    ...(o.config.jobs.concurrency ? { concurrency: concurrencyFrom(o.config.jobs.concurrency) } : {}),
    ...o.runner,
  };
  if (o.config.jobs.engine === 'in-process') {
    return new JobRunner({
      ...settings,
      // Leases of this server's earlier run (same host and data folder) are taken back at start.
      installation: installationId(o.config.dataDir),
      fairShare: { maxWaitingPerUser: o.config.jobs.maxWaitingPerUser, ...o.runner?.fairShare },
      db: o.jobDb,
      now: o.now,
      log: o.log,
    });
  }
  if (o.config.database.kind !== 'postgres') throw new Error('team mode needs DATABASE_URL');
  return new TeamJobEngine({
    url: o.config.database.url,
    schema: o.config.jobs.schema,
    appDb: o.db.kysely,
    log: o.log,
    now: o.now,
    runsJobs: o.config.role !== 'api',
    // Upscales (lane "upscale") run UPSCALE_CONCURRENCY at once per worker process, one per engine.
    concurrency: (lane) => (lane === 'upscale' ? o.config.upscale.concurrency : settings.concurrency(lane)),
    pollMs: settings.pollMs,
    budgetMs: settings.budgetMs,
    backoff: settings.backoff,
    maxRunMs: settings.maxRunMs,
    maxWaitingPerUser: o.config.jobs.maxWaitingPerUser,
    // WORKER_STALE_SECONDS: a dead worker's jobs run elsewhere within it plus one sweep.
    ...leasePace(o.config.jobs.workerStaleSeconds),
    ...o.team,
  });
}

/** Heartbeat and sweep at a third of the threshold (at most every 10 s). */
export function leasePace(staleSeconds: number): { workerStaleMs: number; heartbeatMs: number; sweepMs: number } {
  const workerStaleMs = staleSeconds * 1000;
  const pace = Math.min(10_000, Math.max(200, Math.floor(workerStaleMs / 3)));
  return { workerStaleMs, heartbeatMs: pace, sweepMs: pace };
}
