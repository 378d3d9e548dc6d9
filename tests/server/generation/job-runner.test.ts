import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import type { JobContext, JobHandler } from '../../../server/jobs/job-handler.js';
import { JobRunner } from '../../../server/jobs/job-runner.js';
import type { JobDb, JobRow, JobTables } from '../../../server/jobs/job-table.js';
import { retryDelayMs } from '../../../server/jobs/backoff.js';
import { ProviderError } from '../../../server/providers/capabilities.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';

type Behaviour = (ctx: JobContext) => Promise<void>;

/** A handler whose every run does what the test says, and which records how its jobs ended. */
function handler(kind: string, behaviour: Behaviour, lane = 'test') {
  const ended: { refId: number; reason: string; error: unknown }[] = [];
  const retries: { refId: number; delayMs: number }[] = [];
  const h: JobHandler = {
    kind,
    lane: () => lane,
    timeoutMs: 2000,
    run: behaviour,
    async fail(job: JobRow, error, reason) {
      ended.push({ refId: job.ref_id, reason, error });
    },
    async retrying(job, _error, delayMs) {
      retries.push({ refId: job.ref_id, delayMs });
    },
  };
  return { h, ended, retries };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => Promise<boolean> | boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await wait(10);
  }
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`job runner on ${db.kind}`, () => {
    let database: Db;
    let jobs: JobDb;
    let dataDir: string;
    const schema = uniqueSchema();
    const runners: JobRunner[] = [];
    const runner = (o: Partial<ConstructorParameters<typeof JobRunner>[0]> = {}) => {
      const r = new JobRunner({
        db: jobs,
        now: () => new Date(),
        log: pino({ level: 'silent' }),
        concurrency: () => 2,
        pollMs: 20,
        leaseMs: 1000,
        budgetMs: 3000,
        backoff: { initialMs: 20, maxMs: 100 },
        ...o,
      });
      runners.push(r);
      return r;
    };
    const status = async (id: number) => (await jobs.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).status;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'loom-jobs-'));
      database = await openDatabase(
        db.kind === 'sqlite' ? { kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') } : { kind: 'postgres', url: POSTGRES_URL, schema },
      );
      await migrateToLatest(database);
      jobs = database.kysely.withTables<JobTables>();
    });
    afterAll(async () => {
      for (const r of runners) await r.stop();
      await database?.close();
      if (db.kind === 'postgres') await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('retries a retryable error after at least its Retry-After, then succeeds', async () => {
      let runs = 0;
      const { h, retries } = handler('retry-after', async () => {
        runs++;
        if (runs < 3) throw new ProviderError('rate_limited', '429', { retryAfterMs: 150 });
      });
      const r = runner();
      r.register(h);
      r.start();
      const started = Date.now();
      const id = await r.enqueue({ kind: 'retry-after', refId: 1 });
      await until(async () => (await status(id)) === 'completed');
      expect(runs).toBe(3);
      expect(retries.map((x) => x.delayMs)).toEqual([150, 150]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      const row = await jobs.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: 3, lease_owner: null, last_error: null });
      await r.stop();
    });

    it('fails at once on a non-retryable error, and after the budget on a retryable one', async () => {
      const quota = handler('quota', async () => {
        throw new ProviderError('quota', 'balance');
      });
      const busy = handler('busy', async () => {
        throw new ProviderError('unavailable', '503');
      });
      const r = runner({ budgetMs: 300 });
      r.register(quota.h);
      r.register(busy.h);
      r.start();
      const a = await r.enqueue({ kind: 'quota', refId: 1 });
      const b = await r.enqueue({ kind: 'busy', refId: 2 });
      await until(async () => (await status(a)) === 'failed' && (await status(b)) === 'failed');
      expect(quota.ended).toEqual([{ refId: 1, reason: 'error', error: expect.objectContaining({ kind: 'quota' }) }]);
      expect(busy.retries.length).toBeGreaterThan(0);
      expect(busy.ended[0]).toMatchObject({ reason: 'error', error: { kind: 'unavailable' } });
      await r.stop();
    });

    it('times a hung run out as a retryable timeout', async () => {
      const hung = handler('hung', () => new Promise<void>(() => {}));
      const r = runner({ budgetMs: 200, maxRunMs: 100 });
      r.register(hung.h);
      r.start();
      const id = await r.enqueue({ kind: 'hung', refId: 1 });
      await until(async () => (await status(id)) === 'failed');
      expect(hung.ended[0]).toMatchObject({ error: { kind: 'timeout' } });
      await r.stop();
    });

    it('keeps each lane within its concurrency', async () => {
      let running = 0;
      let most = 0;
      const { h } = handler('lane', async () => {
        running++;
        most = Math.max(most, running);
        await wait(40);
        running--;
      });
      const r = runner({ concurrency: () => 2 });
      r.register(h);
      r.start();
      const ids = await Promise.all([1, 2, 3, 4, 5].map((refId) => r.enqueue({ kind: 'lane', refId })));
      await until(async () => (await Promise.all(ids.map(status))).every((s) => s === 'completed'));
      expect(most).toBe(2);
      await r.stop();
    });

    it('cancels a waiting job and a running one', async () => {
      const { h, ended } = handler('cancel', async ({ signal }) => {
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      });
      const r = runner({ concurrency: () => 1 });
      r.register(h);
      r.start();
      const first = await r.enqueue({ kind: 'cancel', refId: 1 });
      const second = await r.enqueue({ kind: 'cancel', refId: 2 });
      await until(async () => (await status(first)) === 'running');
      expect(await r.cancel('cancel', 2)).toBe('cancelled');
      expect(await r.cancel('cancel', 1)).toBe('cancelled');
      expect([await status(first), await status(second)]).toEqual(['cancelled', 'cancelled']);
      expect(ended.map((e) => [e.refId, e.reason]).sort()).toEqual([
        [1, 'cancelled'],
        [2, 'cancelled'],
      ]);
      expect(await r.cancel('cancel', 1)).toBe('not_running');
      await r.stop();
    });

    it('hands running jobs back on stop, and takes over a crashed process\'s job once its lease expires', async () => {
      let release = false;
      const seen: number[] = [];
      const { h } = handler('resume', async ({ job, signal }) => {
        seen.push(job.attempts);
        while (!release) {
          signal.throwIfAborted();
          await wait(10);
        }
      });
      const first = runner();
      first.register(h);
      first.start();
      const id = await first.enqueue({ kind: 'resume', refId: 1 });
      await until(async () => (await status(id)) === 'running');
      await first.stop();
      expect(await status(id)).toBe('queued');

      // A process that died holding a job: its lease is in the past, its owner gone.
      const crashed = await jobs
        .insertInto('jobs')
        .values({
          kind: 'resume',
          ref_id: 2,
          user_id: null,
          params_json: null,
          status: 'running',
          attempts: 1,
          next_run_at: new Date().toISOString(),
          deadline_at: new Date(Date.now() + 60_000).toISOString(),
          lease_owner: 'dead-process',
          lease_expires_at: new Date(Date.now() - 1000).toISOString(),
          cancel_requested: 0,
          last_error: null,
          finished_at: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      const second = runner();
      second.register(h);
      second.start();
      release = true;
      await until(async () => (await status(id)) === 'completed' && (await status(crashed.id)) === 'completed');
      expect(seen.slice(-2).sort()).toEqual([2, 2]);
      await second.stop();
    });

    it('notices a cancel asked for through another process', async () => {
      const { h, ended } = handler('remote-cancel', async ({ signal }) => {
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      });
      const r = runner({ leaseMs: 150 });
      r.register(h);
      r.start();
      const id = await r.enqueue({ kind: 'remote-cancel', refId: 9 });
      await until(async () => (await status(id)) === 'running');
      await jobs.updateTable('jobs').set({ cancel_requested: 1 }).where('id', '=', id).execute();
      await until(async () => (await status(id)) === 'cancelled');
      expect(ended).toEqual([{ refId: 9, reason: 'cancelled', error: expect.anything() }]);
      await r.stop();
    });
  });
}

describe('backoff', () => {
  it('doubles from the initial delay to the cap with ±20 % jitter, and never waits less than Retry-After', () => {
    const o = { initialMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 10].map((a) => retryDelayMs(a, undefined, o, () => 0.5))).toEqual([1000, 2000, 4000, 60_000]);
    expect(retryDelayMs(1, undefined, o, () => 0)).toBe(800);
    expect(retryDelayMs(1, undefined, o, () => 1)).toBe(1200);
    expect(retryDelayMs(1, 30_000, o, () => 0.5)).toBe(30_000);
  });
});
