// Fast recovery from a dead worker in team mode (server/jobs/pgboss/worker-leases.ts): the jobs of
// a worker whose heartbeat stopped are handed back to pg-boss by a sweep and run on another worker
// long before pg-boss's own expiry (set to minutes here, so only the heartbeat can explain a
// recovery); a worker that is slow but alive keeps its job; a worker that lost its job (only slow,
// not dead) is stopped and its result is refused. Engines in this process act as the processes,
// each with its own pg-boss, pools and listener, on one schema. PostgreSQL only.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobHandler } from '../../../server/jobs/job-handler.js';
import type { TeamEngineOptions } from '../../../server/jobs/pgboss/team-engine.js';
import { useTeamEngines } from '../../support/team-engines.js';
import { databaseKinds } from '../helpers/databases.js';
import { until } from '../generation/helpers/generation-app.js';

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;
const STALE_MS = 1000;
const PACE_MS = 200;

interface Run {
  engine: string;
  refId: number;
  at: number;
  /** Why its signal was aborted, once it was. */
  aborted?: string;
  finished?: boolean;
}

let runs: Run[];
/** engine name → a run there waits until released (and ignores its abort when `stubborn`). */
let holds: Map<string, { release: () => void; stubborn: boolean }>;
let failures: number;

function handler(engine: string, kind: string): JobHandler {
  return {
    kind,
    lane: () => 'test',
    timeoutMs: 60_000,
    async run({ job, signal }) {
      const run: Run = { engine, refId: job.ref_id, at: Date.now() };
      runs.push(run);
      signal.addEventListener('abort', () => (run.aborted = String(signal.reason)), { once: true });
      const hold = holds.get(engine);
      if (hold) {
        await new Promise<void>((resolve, reject) => {
          hold.release = resolve;
          if (!hold.stubborn) signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        });
      }
      run.finished = true;
    },
    async fail() {
      failures++;
    },
  };
}

describe.skipIf(postgres.skip)('recovery from a dead worker on our own heartbeat', () => {
  const team = useTeamEngines({
    budgetMs: 120_000,
    maxRunMs: 60_000,
    // pg-boss's expiry (run limit + grace) is minutes away: only the heartbeat can bring a job back.
    expireGraceSeconds: 600,
    heartbeatMs: PACE_MS,
    sweepMs: PACE_MS,
    workerStaleMs: STALE_MS,
  });
  const engine = (name: string, runsJobs: boolean, extra: Partial<TeamEngineOptions> = {}) =>
    team.engine([handler(name, 'analysis'), handler(name, 'video')], runsJobs, extra);
  const jobStates = async (key: string) => (await team.jobRows(key)).map((row) => row.state);

  beforeEach(() => {
    runs = [];
    holds = new Map();
    failures = 0;
  });

  it('runs the job of a worker that crashed mid-run on the other worker within the threshold and a sweep, once', async () => {
    const api = engine('api', false);
    await api.start();
    const first = engine('first', true);
    await first.start();
    holds.set('first', { release: () => undefined, stubborn: false });
    await api.enqueue({ kind: 'analysis', refId: 1, userId: 3 });
    await until(async () => runs, (r) => r.length === 1);
    expect(runs[0]!.engine).toBe('first');
    const second = engine('second', true);
    await second.start();

    const crashedAt = Date.now();
    await first.crash();
    await until(async () => runs, (r) => r.some((x) => x.engine === 'second' && x.finished), 20_000);
    const recoveryMs = runs.find((x) => x.engine === 'second')!.at - crashedAt;
    console.log(`worker recovery: threshold ${STALE_MS} ms, sweep every ${PACE_MS} ms, job running again after ${recoveryMs} ms`);

    expect(runs.map((r) => r.engine)).toEqual(['first', 'second']);
    expect(runs.filter((r) => r.finished).length).toBe(1);
    await until(async () => jobStates('analysis:1'), (s) => s.length === 1 && s[0] === 'completed');
    expect(failures).toBe(0);
    // The dead worker's heartbeat row is still there (nobody removed it) but no job points at it.
    const owners = await sql<{ n: string }>`SELECT count(*) AS n FROM job_owners`.execute(team.db.kysely);
    expect(Number(owners.rows[0]!.n)).toBe(0);
  }, 30_000);

  it('leaves a slow worker that is alive its job, however long it runs', async () => {
    const worker = engine('slow', true);
    await worker.start();
    const other = engine('other', true);
    await other.start();
    holds.set('slow', { release: () => undefined, stubborn: false });
    holds.set('other', { release: () => undefined, stubborn: false });
    await worker.enqueue({ kind: 'video', refId: 2, userId: 3 });
    await until(async () => runs, (r) => r.length === 1);
    const owner = runs[0]!.engine;
    // Three thresholds and many sweeps pass while it runs.
    let swept = 0;
    const deadline = Date.now() + 3 * STALE_MS;
    while (Date.now() < deadline) {
      swept += await worker.queue.sweepDeadWorkers();
      swept += await other.queue.sweepDeadWorkers();
      await new Promise((r) => setTimeout(r, PACE_MS));
    }
    expect(swept).toBe(0);
    expect(runs).toHaveLength(1);
    holds.get(owner)!.release();
    await until(async () => jobStates('video:2'), (s) => s.length === 1 && s[0] === 'completed');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ engine: owner, finished: true });
  }, 30_000);

  it('stops a worker that was only slow (its heartbeat lapsed) once another took its job, and refuses its late result', async () => {
    // Its heartbeat is written at start and then not for ten minutes: to the others it looks dead.
    // One slot, held by its stubborn run: it takes nothing else meanwhile.
    const slow = engine('slow', true, { heartbeatMs: 600_000, concurrency: () => 1 });
    await slow.start();
    // Does not even stop when told: its completion must be refused.
    holds.set('slow', { release: () => undefined, stubborn: true });
    await slow.enqueue({ kind: 'analysis', refId: 4, userId: 3 });
    await until(async () => runs, (r) => r.length === 1);
    const other = engine('other', true);
    await other.start();

    await until(async () => runs, (r) => r.some((x) => x.engine === 'other' && x.finished), 20_000);
    await until(async () => jobStates('analysis:4'), (s) => s.length === 1 && s[0] === 'completed');
    // The slow worker noticed on its next check that the job is no longer its own.
    await until(async () => runs[0]!.aborted, (reason) => reason === 'lost', 20_000);
    holds.get('slow')!.release();
    await until(async () => runs[0]!.finished, (f) => f === true);
    // Its completion is refused: still one completed job, no second one sent, nothing failed.
    await new Promise((r) => setTimeout(r, 300));
    expect(await jobStates('analysis:4')).toEqual(['completed']);
    expect(runs.map((r) => r.engine)).toEqual(['slow', 'other']);
    expect(failures).toBe(0);
  }, 30_000);

  it('hands back a job a live worker owns but no longer runs (its end could not be recorded), and it runs once more', async () => {
    const api = engine('api', false);
    await api.start();
    await api.enqueue({ kind: 'analysis', refId: 6, userId: 3 });
    // The state a database restart can leave: the job is active and recorded as the worker's, but
    // the worker's run ended without its end being written.
    const worker = engine('worker', true);
    const [job] = await api.boss.fetch<unknown>('loom-lane-test', { batchSize: 1 });
    expect(job).toBeDefined();
    await sql`INSERT INTO job_owners (job_id, worker_id, queue, started_at)
              VALUES (${job!.id}, ${worker.workerId}, 'loom-lane-test', ${new Date().toISOString()})`.execute(team.db.kysely);
    await worker.start();
    await until(async () => jobStates('analysis:6'), (s) => s.length === 1 && s[0] === 'completed', 10_000);
    expect(runs.map((r) => r.engine)).toEqual(['worker']);
  }, 30_000);

  it('fails the row of a job whose worker died once more than the engine retries allow, and a new job of that row is a new run', async () => {
    const api = engine('api', false, { stallRetryLimit: 0 });
    await api.start();
    const first = engine('first', true, { stallRetryLimit: 0 });
    await first.start();
    holds.set('first', { release: () => undefined, stubborn: false });
    await api.enqueue({ kind: 'analysis', refId: 7, userId: 3 });
    await until(async () => runs, (r) => r.length === 1);
    await first.crash();
    // No retry left: the sweep fails the job into the dead-letter queue, where it waits (no worker runs).
    const jobsOfRow = async () =>
      (
        await sql<{ name: string; state: string }>`
          SELECT name, state::text AS state FROM ${sql.id(team.bossSchema, 'job')} WHERE singleton_key = 'analysis:7' ORDER BY name, created_on`.execute(
          team.db.kysely,
        )
      ).rows;
    await until(jobsOfRow, (rows) => rows.some((r) => r.name === 'loom-dead' && r.state === 'created'), 10_000);
    expect(await jobsOfRow()).toEqual([
      { name: 'loom-dead', state: 'created' },
      { name: 'loom-lane-test', state: 'failed' },
    ]);
    // The dead-letter copy is not a run of the row: nothing runs it, and it is enqueued again as a new job.
    expect(await api.isActive('analysis', 7)).toBe(false);
    await api.enqueue({ kind: 'analysis', refId: 7, userId: 3 });
    expect((await jobsOfRow()).filter((r) => r.name === 'loom-lane-test').map((r) => r.state)).toEqual(['failed', 'created']);

    // A worker drains the dead-letter queue (the row is failed) and runs the new job.
    const second = engine('second', true, { stallRetryLimit: 0 });
    await second.start();
    await until(jobsOfRow, (rows) => rows.every((r) => r.state !== 'created' && r.state !== 'active'), 10_000);
    expect(failures).toBe(1);
    expect(runs.map((r) => [r.engine, r.finished ?? false])).toEqual([
      ['first', false],
      ['second', true],
    ]);
  }, 30_000);

  it('sweeps once when two processes sweep at the same moment', async () => {
    const first = engine('first', true);
    await first.start();
    holds.set('first', { release: () => undefined, stubborn: false });
    await first.enqueue({ kind: 'analysis', refId: 5, userId: 3 });
    await until(async () => runs, (r) => r.length === 1);
    await first.crash();
    const a = engine('a', false, { sweepMs: 600_000 });
    const b = engine('b', false, { sweepMs: 600_000 });
    await a.start();
    await b.start();
    await new Promise((r) => setTimeout(r, STALE_MS + 100));
    const counts = await Promise.all([a.queue.sweepDeadWorkers(), b.queue.sweepDeadWorkers()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await jobStates('analysis:5')).toEqual(['retry']);
  }, 30_000);
});
