// Team mode's job queue on pg-boss: two (or three) engines in this process act as an API replica
// and workers, each with its own pg-boss instance, pools and listener connection, on one schema.
// PostgreSQL only.
import { sql } from 'kysely';
import type pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobHandler } from '../../../server/jobs/job-handler.js';
import type { JobRow } from '../../../server/jobs/job-table.js';
import { fairPriority } from '../../../server/jobs/pgboss/fair-priority.js';
import { LANE_QUEUE_PREFIX } from '../../../server/jobs/pgboss/lane-jobs.js';
import type { TeamEngineOptions } from '../../../server/jobs/pgboss/team-engine.js';
import { ProviderError } from '../../../server/providers/capabilities.js';
import { useTeamEngines } from '../../support/team-engines.js';
import { databaseKinds } from '../helpers/databases.js';
import { until } from '../generation/helpers/generation-app.js';

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;

interface Run {
  engine: string;
  kind: string;
  refId: number;
  attempt: number;
  userId: number | null;
}

let runs: Run[];
let failures: { engine: string; refId: number; reason: string }[];
/** refIds whose handler waits for its abort signal (per engine name, or '*' for every engine). */
let hold: Map<number, string>;

function handlers(engine: string): JobHandler[] {
  const make = (kind: string): JobHandler => ({
    kind,
    lane: () => 'test',
    jobClass: kind === 'video' ? 'batch' : 'interactive',
    timeoutMs: 60_000,
    async run({ job, signal, attempt, publish }) {
      runs.push({ engine, kind, refId: job.ref_id, attempt, userId: job.user_id });
      publish(`t:${job.ref_id}`, { type: 'started', engine });
      const held = hold.get(job.ref_id);
      if (held === '*' || held === engine) {
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      }
      if (kind === 'flaky' && attempt === 1) throw new ProviderError('rate_limited', 'slow down', { retryAfterMs: 50 });
      // What a handler's database write throws while PostgreSQL restarts.
      if (kind === 'dbdown' && attempt === 1) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      if (kind === 'big') publish(`t:${job.ref_id}`, { type: 'text', content: 'x'.repeat(20_000) });
      publish(`t:${job.ref_id}`, { type: 'completed', engine });
    },
    async fail(job: JobRow, _error, reason) {
      failures.push({ engine, refId: job.ref_id, reason });
    },
  });
  return ['echo', 'flaky', 'dbdown', 'big', 'analysis', 'video'].map(make);
}

describe.skipIf(postgres.skip)('pg-boss job queue across processes', () => {
  const team = useTeamEngines({ maxRunMs: 1500, expireGraceSeconds: 1 });
  const engine = (name: string, runsJobs: boolean, extra: Partial<TeamEngineOptions> = {}) => team.engine(handlers(name), runsJobs, extra);
  const jobRows = (key: string) => team.jobRows(key);
  /** An API replica with user 1's backlog of four videos (refIds from `first`), each held once running. */
  const apiWithHeldVideos = async (first: number) => {
    const api = engine('api', false);
    await api.start();
    for (let i = 0; i < 4; i++) {
      hold.set(first + i, '*');
      await api.enqueue({ kind: 'video', refId: first + i, userId: 1 });
    }
    return api;
  };

  beforeEach(() => {
    runs = [];
    failures = [];
    hold = new Map();
  });

  it('runs a job enqueued on the API replica on a worker, and its progress reaches the API replica', async () => {
    const api = engine('api', false);
    await api.start();
    const worker = engine('worker', true);
    await worker.start();
    const seen: Record<string, unknown>[] = [];
    api.onProgress('t:1', (event) => seen.push(event));
    await api.enqueue({ kind: 'echo', refId: 1, userId: 7 });
    await until(async () => seen, (s) => s.some((e) => e.type === 'completed'));
    expect(runs).toEqual([{ engine: 'worker', kind: 'echo', refId: 1, attempt: 1, userId: 7 }]);
    expect(seen).toEqual([
      { type: 'started', engine: 'worker' },
      { type: 'completed', engine: 'worker' },
    ]);
    await until(() => jobRows('echo:1'), (rows) => rows[0]?.state === 'completed');
    expect(await api.isActive('echo', 1)).toBe(false);
  });

  it('carries an event larger than a notification, and keeps listening after its connection is cut', async () => {
    const api = engine('api', false);
    await api.start();
    const worker = engine('worker', true);
    await worker.start();
    const seen: Record<string, unknown>[] = [];
    api.onProgress('t:2', (event) => seen.push(event));
    await api.enqueue({ kind: 'big', refId: 2 });
    await until(async () => seen, (s) => s.some((e) => e.type === 'completed'));
    expect(seen.find((e) => e.type === 'text')).toEqual({ type: 'text', content: 'x'.repeat(20_000) });

    // The database ends the API replica's listening session (as a restart would).
    const pid = await api.listener.backendPid();
    await sql`SELECT pg_terminate_backend(${pid})`.execute(team.db.kysely);
    await until(async () => api.listener.generation, (g) => g >= 2);
    api.onProgress('t:3', (event) => seen.push({ ...event, topic: 3 }));
    await api.enqueue({ kind: 'echo', refId: 3 });
    await until(async () => seen, (s) => s.some((e) => e.topic === 3 && e.type === 'completed'));
  });

  it('creates a new lane\'s queue when several replicas enqueue its first jobs at the same moment', async () => {
    // pg-boss makes a partition per queue: two processes creating one at once could deadlock and
    // the enqueue answered 500 (the first upscales of a fresh team, landing on both replicas).
    const replicas = [engine('api-1', false), engine('api-2', false), engine('api-3', false)];
    for (const r of replicas) await r.start();
    const lanes = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6'];
    for (const r of replicas) for (const lane of lanes) r.register({ ...handlers('x')[0]!, kind: `k-${lane}`, lane: () => lane });
    const results = await Promise.allSettled(
      lanes.flatMap((lane, l) => replicas.map((r, i) => r.enqueue({ kind: `k-${lane}`, refId: 100 + l * 10 + i, userId: 9 }))),
    );
    expect(results.filter((x) => x.status === 'rejected').map((x) => String((x as PromiseRejectedResult).reason))).toEqual([]);
  });

  it('refuses to start on the job queue of pg-boss 10, saying what to do, and leaves it as it was', async () => {
    // What pg-boss 10 leaves in its schema: its version table at schema version 24.
    const version = sql.id(team.bossSchema, 'version');
    await sql`CREATE SCHEMA ${sql.id(team.bossSchema)}`.execute(team.db.kysely);
    await sql`CREATE TABLE ${version} (version int PRIMARY KEY, maintained_on timestamptz, cron_on timestamptz, monitored_on timestamptz)`.execute(
      team.db.kysely,
    );
    await sql`INSERT INTO ${version} (version) VALUES (24)`.execute(team.db.kysely);
    const api = engine('api', false);
    await expect(api.start()).rejects.toThrow(/holds the job queue of pg-boss 10 \(schema version 24\).*set a new PGBOSS_SCHEMA/);
    await api.crash();
    const left = await sql<{ version: number }>`SELECT version FROM ${version}`.execute(team.db.kysely);
    expect(left.rows).toEqual([{ version: 24 }]);
  });

  it('leaves no job when the transaction that enqueued it rolls back, and one job for a row enqueued twice', async () => {
    const api = engine('api', false);
    await api.start();
    await sql`CREATE TABLE items (id int primary key)`.execute(team.db.kysely);
    await expect(
      team.db.kysely.transaction().execute(async (trx) => {
        await sql`INSERT INTO items VALUES (5)`.execute(trx);
        await api.enqueue({ kind: 'echo', refId: 5 }, { trx });
        throw new Error('the request failed after its job was written');
      }),
    ).rejects.toThrow('the request failed');
    expect(await jobRows('echo:5')).toEqual([]);
    expect(await api.isActive('echo', 5)).toBe(false);

    await team.db.kysely.transaction().execute(async (trx) => {
      await sql`INSERT INTO items VALUES (6)`.execute(trx);
      await api.enqueue({ kind: 'echo', refId: 6 }, { trx });
    });
    const [first, second] = await Promise.all([api.enqueue({ kind: 'echo', refId: 6 }), api.enqueue({ kind: 'echo', refId: 6 })]);
    expect(first).toBe(second);
    expect(await jobRows('echo:6')).toHaveLength(1);
    expect(await api.isActive('echo', 6)).toBe(true);
  });

  it('retries a rate-limited run with our backoff as a new job of the same row', async () => {
    const worker = engine('worker', true);
    await worker.start();
    await worker.enqueue({ kind: 'flaky', refId: 8 });
    await until(() => jobRows('flaky:8'), (rows) => rows.length === 2 && rows[1]!.state === 'completed');
    expect(runs.map((r) => r.attempt)).toEqual([1, 2]);
    const rows = await jobRows('flaky:8');
    expect(rows[0]!.output).toMatchObject({ outcome: 'retried' });
    expect(rows[1]!.output).toMatchObject({ outcome: 'completed' });
  });

  it('runs again a job whose database write failed while PostgreSQL restarted, instead of failing its row', async () => {
    const worker = engine('worker', true);
    await worker.start();
    await worker.enqueue({ kind: 'dbdown', refId: 9 });
    await until(() => jobRows('dbdown:9'), (rows) => rows.length === 2 && rows[1]!.state === 'completed');
    expect(runs.map((r) => r.attempt)).toEqual([1, 2]);
    expect(failures).toEqual([]);
    expect((await jobRows('dbdown:9'))[0]!.output).toMatchObject({ outcome: 'retried' });
  });

  it('runs the job of a worker that died mid-run on the other worker once the engine expires it', async () => {
    const api = engine('api', false);
    await api.start();
    const first = engine('first', true);
    await first.start();
    hold.set(10, 'first');
    await api.enqueue({ kind: 'echo', refId: 10 });
    await until(async () => runs, (r) => r.length === 1);
    const second = engine('second', true);
    await second.start();
    await first.crash();
    // expiry = run limit 1.5 s + 1 s grace, maintenance every second, then a short engine retry delay
    await until(() => jobRows('echo:10'), (rows) => rows[0]?.state === 'completed', 20_000);
    expect(runs.map((r) => [r.engine, r.attempt])).toEqual([
      ['first', 1],
      ['second', 2],
    ]);
    expect(failures).toEqual([]);
  });

  it('cancels a job running on another process promptly, and a waiting one at once', async () => {
    const api = engine('api', false);
    await api.start();
    const worker = engine('worker', true, { concurrency: () => 1 });
    await worker.start();
    hold.set(20, '*');
    await api.enqueue({ kind: 'echo', refId: 20 });
    await until(async () => runs, (r) => r.length === 1);
    await api.enqueue({ kind: 'echo', refId: 21 });
    expect(await api.cancel('echo', 21)).toBe('cancelled');
    expect(failures).toEqual([{ engine: 'api', refId: 21, reason: 'cancelled' }]);

    expect(await api.cancel('echo', 20)).toBe('requested');
    await until(async () => failures, (f) => f.length === 2);
    expect(failures[1]).toEqual({ engine: 'worker', refId: 20, reason: 'cancelled' });
    expect((await jobRows('echo:20'))[0]!.state).toBe('cancelled');
    expect(await api.cancel('echo', 20)).toBe('not_running');
    expect(runs.map((r) => r.refId)).toEqual([20]);
  });

  it("does not let one user's backlog delay another user's first job; interactive work goes first", async () => {
    const api = engine('api', false);
    await api.start();
    for (let i = 0; i < 6; i++) await api.enqueue({ kind: 'video', refId: 100 + i, userId: 1 });
    await api.enqueue({ kind: 'video', refId: 200, userId: 2 });
    await api.enqueue({ kind: 'analysis', refId: 300, userId: 1 });
    const worker = engine('worker', true, { concurrency: () => 1 });
    await worker.start();
    await until(async () => runs, (r) => r.length === 8);
    const order = runs.map((r) => `${r.kind}:${r.refId}`);
    expect(order[0]).toBe('analysis:300');
    expect(order.indexOf('video:200')).toBeLessThanOrEqual(2);
    expect(order.filter((o) => o.startsWith('video:1'))).toEqual(['video:100', 'video:101', 'video:102', 'video:103', 'video:104', 'video:105']);
    expect(fairPriority('batch', 0)).toBeLessThan(fairPriority('interactive', 999));
  });

  it("keeps a slot of a lane of two for interactive work: another user's analysis starts while a backlog waits", async () => {
    const api = await apiWithHeldVideos(400);
    const worker = engine('worker', true);
    await worker.start();
    await until(async () => runs, (r) => r.length === 1);
    await api.enqueue({ kind: 'analysis', refId: 500, userId: 2 });
    await until(async () => runs, (r) => r.some((x) => x.refId === 500));
    // Batch work took one slot of two; the videos still hold theirs.
    expect(runs.map((r) => `${r.kind}:${r.refId}`)).toEqual(['video:400', 'analysis:500']);
  });

  it('hands back batch work fetched for the interactive slot when the interactive job it counted went to another worker meanwhile', async () => {
    const api = await apiWithHeldVideos(600);
    const worker = engine('worker', true);
    // Between the worker's count of interactive jobs waiting and its fetch, another worker (here the
    // API replica's pg-boss) takes the analysis it counted.
    let stolen: string | undefined;
    const query = worker.pool.query.bind(worker.pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    (worker.pool as { query: unknown }).query = async (text: string, values?: unknown[]) => {
      const r = await query(text, values);
      if (!stolen && text.includes(`data->>'cls' = 'interactive'`) && Number(r.rows[0]?.n) > 0) {
        const [job] = await api.boss.fetch(`${LANE_QUEUE_PREFIX}test`, { priority: true });
        stolen = job?.id ?? 'none';
      }
      return r;
    };
    await worker.start();
    await until(async () => runs, (r) => r.length === 1);
    await api.enqueue({ kind: 'analysis', refId: 700, userId: 2 });
    await until(async () => stolen, (s) => s !== undefined);
    expect(stolen).not.toBe('none');
    // Several polls later: still one batch job running, the reserved slot left free.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(runs.map((r) => `${r.kind}:${r.refId}`)).toEqual(['video:600']);
    // The video fetched into that slot is waiting again, a job of the same attempt.
    const rows = await jobRows('video:601');
    expect(rows.map((r) => r.state)).toEqual(['completed', 'created']);
    expect(rows[0]!.output).toMatchObject({ outcome: 'handed-back' });
  });

  it("refuses a user's work beyond the waiting cap with a 429, counted per class as the in-process runner does", async () => {
    const api = engine('api', false, { maxWaitingPerUser: 2 });
    await api.start();
    await api.admit(3, 'video');
    await api.enqueue({ kind: 'video', refId: 1, userId: 3 });
    await api.enqueue({ kind: 'video', refId: 2, userId: 3 });
    await expect(api.admit(3, 'video')).rejects.toMatchObject({ status: 429, key: 'queue_full' });
    await expect(api.admit(4, 'video', 3)).rejects.toMatchObject({ status: 429, key: 'queue_full' });
    // Another user, and the same user's interactive work, are not held back by that backlog.
    await api.admit(4, 'video', 2);
    await api.admit(3, 'analysis');
  });
});
