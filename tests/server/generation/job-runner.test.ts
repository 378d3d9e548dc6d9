import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KyselyPlugin, QueryId } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { createUsersRepository } from '../../../server/modules/users/users-repository.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import type { JobContext, JobHandler } from '../../../server/jobs/job-handler.js';
import type { JobClass } from '../../../server/jobs/fair-share.js';
import { JobRunner } from '../../../server/jobs/job-runner.js';
import { installationId } from '../../../server/jobs/lease-owner.js';
import type { JobDb, JobRow, JobTables } from '../../../server/jobs/job-table.js';
import { retryDelayMs } from '../../../server/jobs/backoff.js';
import { ProviderError } from '../../../server/providers/capabilities.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';

type Behaviour = (ctx: JobContext) => Promise<void>;

/** A handler whose every run does what the test says, and which records how its jobs ended. */
function handler(kind: string, behaviour: Behaviour, lane = 'test', jobClass?: JobClass) {
  const ended: { refId: number; reason: string; error: unknown }[] = [];
  const retries: { refId: number; delayMs: number }[] = [];
  const h: JobHandler = {
    kind,
    lane: () => lane,
    jobClass,
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

/** Jobs that run until the test lets each one go (or it is aborted); records the order they started. */
function gated() {
  const gates = new Map<number, () => void>();
  const started: number[] = [];
  const behaviour: Behaviour = ({ job, signal }) =>
    new Promise<void>((resolve, reject) => {
      started.push(job.ref_id);
      gates.set(job.ref_id, resolve);
      signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
  const release = (refId: number) => gates.get(refId)!();
  return { behaviour, started, release };
}

/** A process that is gone (its pid is free, or someone else's now but not ours). */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(child.pid!));
  });
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`job runner on ${db.kind}`, () => {
    let database: Db;
    let jobs: JobDb;
    let dataDir: string;
    const schema = uniqueSchema();
    const runners: JobRunner[] = [];
    const userIds: number[] = [];
    const user = (n: 1 | 2 | 3) => userIds[n - 1]!;
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
    const status = async (id: number) =>
      (await jobs.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).status;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'loom-jobs-'));
      database = await openDatabase(
        db.kind === 'sqlite'
          ? { kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') }
          : { kind: 'postgres', url: POSTGRES_URL, schema },
      );
      await migrateToLatest(database);
      jobs = database.kysely.withTables<JobTables>();
      // The users whose jobs the fairness tests queue (jobs.user_id refers to users).
      const users = createUsersRepository(database.kysely, () => new Date());
      for (const account of ['fair-1', 'fair-2', 'fair-3']) {
        const row = await users.create({
          account,
          international_code: '+86',
          display_name: account,
          user_level: 'GENERAL',
          password_hash: null,
        });
        userIds.push(row.id);
      }
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
      // The row is failed first and the handler told after (job-runner.ts): wait for both.
      await until(
        async () =>
          (await status(a)) === 'failed' &&
          (await status(b)) === 'failed' &&
          quota.ended.length > 0 &&
          busy.ended.length > 0,
      );
      expect(quota.ended).toEqual([
        { refId: 1, reason: 'error', error: expect.objectContaining({ kind: 'quota' }) },
      ]);
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
      // The row is failed first and the handler told after (job-runner.ts): wait for both.
      await until(async () => (await status(id)) === 'failed' && hung.ended.length > 0);
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
        await new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
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

    it("hands running jobs back on stop, and takes over a crashed process's job once its lease expires", async () => {
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
      await until(
        async () => (await status(id)) === 'completed' && (await status(crashed.id)) === 'completed',
      );
      expect(seen.slice(-2).sort()).toEqual([2, 2]);
      await second.stop();
    });

    it("starts another user's interactive job as soon as a slot frees, past one user's backlog of batch jobs", async () => {
      const videos = gated();
      const analyses = gated();
      const batch = handler('backlog-batch', videos.behaviour, 'shared', 'batch');
      const watched = handler('backlog-watched', analyses.behaviour, 'shared', 'interactive');
      const r = runner({ concurrency: () => 2, leaseMs: 5000 });
      r.register(batch.h);
      r.register(watched.h);
      // User 1 queues 150 slow videos: more than the oldest hundred due jobs, so user 2's lies past them.
      // Queued before the runner starts, so the backlog is whole however long 150 inserts take.
      for (let refId = 1; refId <= 150; refId++)
        await r.enqueue({ kind: 'backlog-batch', refId, userId: user(1) });
      r.start();
      await until(() => videos.started.length === 1);
      // User 2's analysis takes the slot batch work leaves free: no video had to end first.
      const id = await r.enqueue({ kind: 'backlog-watched', refId: 1, userId: user(2) });
      await until(async () => (await status(id)) === 'running');
      expect(videos.started).toEqual([1]);
      analyses.release(1);
      await until(async () => (await status(id)) === 'completed');
      // The interactive slot is not lent to the backlog: batch work keeps to its one slot.
      expect(videos.started).toEqual([1]);
      await r.stop();
      await jobs.deleteFrom('jobs').where('kind', 'in', ['backlog-batch', 'backlog-watched']).execute();
    });

    it('gives a freed slot to the user who waits, not to the next job of the user holding the lane', async () => {
      const videos = gated();
      const { h } = handler('turns', videos.behaviour, 'shared', 'batch');
      const r = runner({ concurrency: () => 2, leaseMs: 5000, fairShare: { interactiveReserve: 0 } });
      r.register(h);
      r.start();
      for (let refId = 1; refId <= 20; refId++) await r.enqueue({ kind: 'turns', refId, userId: user(1) });
      await until(() => videos.started.length === 2);
      await r.enqueue({ kind: 'turns', refId: 100, userId: user(2) });
      await r.enqueue({ kind: 'turns', refId: 101, userId: user(2) });
      videos.release(videos.started[0]!);
      await until(() => videos.started.length === 3);
      expect(videos.started[2]).toBe(100);
      // Now each holds one slot: the one user 1 frees goes back to user 1.
      videos.release(videos.started[1]!);
      await until(() => videos.started.length === 4);
      expect(videos.started[3]).toBe(3);
      await r.stop();
      await jobs.deleteFrom('jobs').where('kind', '=', 'turns').execute();
    });

    it('leaves a slot freed while it reads the table to a fresh read, which sees a user queued meanwhile', async () => {
      // The runner's read of the due jobs answers 300 ms late, as on a loaded database: a slot that
      // frees during it must not go to the backlog that read saw, but to user 2, queued meanwhile.
      const videos = gated();
      const { h } = handler('late-turns', videos.behaviour, 'shared', 'batch');
      const r = runner({
        db: jobs.withPlugin(lateDueReads(300)),
        concurrency: () => 2,
        leaseMs: 5000,
        fairShare: { interactiveReserve: 0 },
      });
      r.register(h);
      for (let refId = 1; refId <= 20; refId++) await r.enqueue({ kind: 'late-turns', refId, userId: user(1) });
      r.start();
      await until(() => videos.started.length === 2);
      await r.enqueue({ kind: 'late-turns', refId: 100, userId: user(2) });
      videos.release(videos.started[0]!);
      await until(() => videos.started.length === 3);
      expect(videos.started[2]).toBe(100);
      await r.stop();
      await jobs.deleteFrom('jobs').where('kind', '=', 'late-turns').execute();
    });

    it("refuses a user's waiting jobs past the cap, counted per class", async () => {
      const r = runner({ fairShare: { maxWaitingPerUser: 3, retryAfterSeconds: 12 } });
      r.register(handler('cap-batch', async () => {}, 'test', 'batch').h);
      r.register(handler('cap-watched', async () => {}).h);
      // Not started: everything stays queued.
      for (let refId = 1; refId <= 3; refId++) await r.enqueue({ kind: 'cap-batch', refId, userId: user(3) });
      await expect(r.admit(user(3), 'cap-batch')).rejects.toMatchObject({
        status: 429,
        key: 'queue_full',
        options: { retryAfterSeconds: 12 },
      });
      await r.admit(user(3), 'cap-watched', 3);
      await expect(r.admit(user(3), 'cap-watched', 4)).rejects.toMatchObject({ status: 429 });
      await r.admit(user(1), 'cap-batch', 3);
      await jobs.deleteFrom('jobs').where('kind', '=', 'cap-batch').execute();
    });

    it("takes back at start the jobs this installation's earlier run held, and waits out anyone else's lease", async () => {
      const here = installationId(dataDir);
      const elsewhere = installationId(dataDir, 'another-host');
      const resumed = gated();
      const { h } = handler('reclaim', resumed.behaviour);
      const leasedJob = async (refId: number, owner: string) =>
        (
          await jobs
            .insertInto('jobs')
            .values({
              kind: 'reclaim',
              ref_id: refId,
              user_id: null,
              params_json: null,
              status: 'running',
              attempts: 1,
              next_run_at: new Date().toISOString(),
              deadline_at: new Date(Date.now() + 600_000).toISOString(),
              lease_owner: owner,
              lease_expires_at: new Date(Date.now() + 60_000).toISOString(),
              cancel_requested: 0,
              last_error: null,
              finished_at: null,
              created_at: new Date().toISOString(),
              updated_at: new Date().toISOString(),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      // A kill -9 of this server: the pid is gone (or reused by this very process after a restart).
      const killed = await leasedJob(1, `${here}:${await deadPid()}:a1b2c3`);
      const samePid = await leasedJob(2, `${here}:${process.pid}:d4e5f6`);
      // Another replica (another host or data folder) and a live process of this installation.
      const replica = await leasedJob(3, `${elsewhere}:${process.pid}:0a0b0c`);
      const sibling = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      try {
        const live = await leasedJob(4, `${here}:${sibling.pid}:112233`);
        const r = runner({ installation: here, leaseMs: 60_000 });
        r.register(h);
        r.start();
        await until(() => resumed.started.length === 2);
        expect(resumed.started.sort()).toEqual([1, 2]);
        resumed.release(1);
        resumed.release(2);
        await until(
          async () => (await status(killed)) === 'completed' && (await status(samePid)) === 'completed',
        );
        const untouched = await jobs
          .selectFrom('jobs')
          .select(['status', 'lease_owner'])
          .where('id', 'in', [replica, live])
          .orderBy('id')
          .execute();
        expect(untouched).toEqual([
          { status: 'running', lease_owner: `${elsewhere}:${process.pid}:0a0b0c` },
          { status: 'running', lease_owner: `${here}:${sibling.pid}:112233` },
        ]);
        expect(resumed.started).toHaveLength(2);
        // Their leases run out: then, and only then, they are taken over.
        await jobs
          .updateTable('jobs')
          .set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
          .where('id', 'in', [replica, live])
          .execute();
        await until(() => resumed.started.length === 4);
        resumed.release(3);
        resumed.release(4);
        await until(
          async () => (await status(replica)) === 'completed' && (await status(live)) === 'completed',
        );
        await r.stop();
      } finally {
        sibling.kill();
      }
    });

    it('notices a cancel asked for through another process', async () => {
      const { h, ended } = handler('remote-cancel', async ({ signal }) => {
        await new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      });
      const r = runner({ leaseMs: 150 });
      r.register(h);
      r.start();
      const id = await r.enqueue({ kind: 'remote-cancel', refId: 9 });
      await until(async () => (await status(id)) === 'running');
      await jobs.updateTable('jobs').set({ cancel_requested: 1 }).where('id', '=', id).execute();
      // The row is marked cancelled first, then the handler hears of it.
      await until(async () => (await status(id)) === 'cancelled' && ended.length > 0);
      expect(ended).toEqual([{ refId: 9, reason: 'cancelled', error: expect.anything() }]);
      await r.stop();
    });
  });
}

describe('backoff', () => {
  it('doubles from the initial delay to the cap with ±20 % jitter, and never waits less than Retry-After', () => {
    const o = { initialMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 10].map((a) => retryDelayMs(a, undefined, o, () => 0.5))).toEqual([
      1000, 2000, 4000, 60_000,
    ]);
    expect(retryDelayMs(1, undefined, o, () => 0)).toBe(800);
    expect(retryDelayMs(1, undefined, o, () => 1)).toBe(1200);
    expect(retryDelayMs(1, 30_000, o, () => 0.5)).toBe(30_000);
  });
});

/** Delays the answer of the runner's read of the due jobs (the query ranking them per user). */
function lateDueReads(ms: number): KyselyPlugin {
  const late = new WeakSet<QueryId>();
  return {
    transformQuery: ({ node, queryId }) => {
      if (JSON.stringify(node).includes('"due_rank"')) late.add(queryId);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (late.has(queryId)) await new Promise((resolve) => setTimeout(resolve, ms));
      return result;
    },
  };
}
