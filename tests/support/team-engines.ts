// Team mode's job engines inside one test process, for the suites of the queue itself
// (tests/server/team): each engine acts as one process (an API replica or a worker) with its own
// pg-boss, pools and listener, all on a fresh pair of PostgreSQL schemas per test (the app's,
// migrated so the workers and job_owners tables exist, and pg-boss's). Engines are stopped and the
// schemas dropped after each test.
import pino from 'pino';
import { sql } from 'kysely';
import { afterEach, beforeEach } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import type { JobHandler } from '../../server/jobs/job-handler.js';
import { TeamJobEngine, type TeamEngineOptions } from '../../server/jobs/pgboss/team-engine.js';
import { POSTGRES_URL, dropSchema, uniqueSchema } from '../server/helpers/databases.js';

export interface TeamEngines {
  /** The current test's app database. */
  readonly db: Db;
  /** The current test's pg-boss schema. */
  readonly bossSchema: string;
  /** A new engine: quick polls and backoff, the suite's settings, then `extra`. */
  engine(handlers: JobHandler[], runsJobs: boolean, extra?: Partial<TeamEngineOptions>): TeamJobEngine;
  /** The pg-boss jobs of one row (singletonKey `kind:refId`), oldest first. */
  jobRows(key: string): Promise<{ state: string; output: unknown }[]>;
}

/** Registers the per-test setup and teardown in the calling describe block. */
export function useTeamEngines(suite: Partial<TeamEngineOptions>): TeamEngines {
  let schema = '';
  let bossSchema = '';
  let db: Db | undefined;
  let engines: TeamJobEngine[] = [];
  const current = (): Db => {
    if (!db) throw new Error('team engines are set up per test');
    return db;
  };

  beforeEach(async () => {
    schema = uniqueSchema();
    bossSchema = `${schema}_jobs`;
    db = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema });
    // The workers table and the job owners (the app migrates before its job engine starts).
    await migrateToLatest(db);
    engines = [];
  });

  afterEach(async () => {
    for (const e of engines) await e.stop().catch(() => undefined);
    await db?.close();
    db = undefined;
    await dropSchema(bossSchema);
    await dropSchema(schema);
  });

  return {
    get db() {
      return current();
    },
    get bossSchema() {
      return bossSchema;
    },
    engine(handlers, runsJobs, extra = {}) {
      const e = new TeamJobEngine({
        url: POSTGRES_URL,
        schema: bossSchema,
        appDb: current().kysely,
        log: pino({ level: 'silent' }),
        now: () => new Date(),
        runsJobs,
        concurrency: () => 2,
        pollMs: 100,
        budgetMs: 10_000,
        backoff: { initialMs: 20, maxMs: 200 },
        maintenanceIntervalSeconds: 1,
        poolSize: 3,
        ...suite,
        ...extra,
      });
      for (const h of handlers) e.register(h);
      engines.push(e);
      return e;
    },
    async jobRows(key) {
      const r = await sql<{ state: string; output: unknown }>`
        SELECT state::text AS state, output FROM ${sql.id(bossSchema, 'job')} WHERE singleton_key = ${key} ORDER BY created_on`.execute(
        current().kysely,
      );
      return r.rows;
    },
  };
}
