// The in-process runner and a job enqueued in the caller's transaction: the runner's wake-up at
// enqueue comes before the commit (on PostgreSQL the row is not visible to it yet); the job still
// starts right after the commit, not at the next poll (an hour away here).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { JobRunner } from '../../../server/jobs/job-runner.js';
import type { JobTables } from '../../../server/jobs/job-table.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';
import { until } from './helpers/generation-app.js';

for (const kind of databaseKinds) {
  describe.skipIf(kind.skip)(`a job enqueued in a transaction on ${kind.kind}`, () => {
    let database: Db;
    let dataDir: string;
    const schema = uniqueSchema();

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'loom-commit-wake-'));
      database = await openDatabase(
        kind.kind === 'sqlite' ? { kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') } : { kind: 'postgres', url: POSTGRES_URL, schema },
      );
      await migrateToLatest(database);
    });
    afterAll(async () => {
      await database?.close();
      if (kind.kind === 'postgres') await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('starts once the transaction commits, without waiting for the next poll', async () => {
      const ran: number[] = [];
      const runner = new JobRunner({
        db: database.kysely.withTables<JobTables>(),
        now: () => new Date(),
        log: pino({ level: 'silent' }),
        concurrency: () => 2,
        pollMs: 3_600_000,
        leaseMs: 60_000,
        budgetMs: 60_000,
        backoff: { initialMs: 20, maxMs: 100 },
      });
      runner.register({
        kind: 'after-commit',
        lane: () => 'test',
        timeoutMs: 10_000,
        async run({ job }) {
          ran.push(job.ref_id);
        },
        async fail() {},
      });
      runner.start();
      try {
        await database.kysely.transaction().execute(async (trx) => {
          await runner.enqueue({ kind: 'after-commit', refId: 7 }, { trx });
          // More work in the same transaction after the enqueue.
          await trx.selectFrom('users').select('id').execute();
          await new Promise((r) => setTimeout(r, 30));
        });
        await until(async () => ran, (r) => r.length === 1, 10_000);
        expect(ran).toEqual([7]);
      } finally {
        await runner.stop();
      }
    }, 20_000);
  });
}
