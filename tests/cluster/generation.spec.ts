// Generation in team mode, through nginx with the real PWA in Chromium: two ROLE=api replicas
// behind nginx, two ROLE=worker processes, the suite's own PostgreSQL (pg-boss) and S3 storage on
// the local S3 server, built-in engine. Each scenario is timed against the same work on one
// healthy process (ROLE=all, SQLite, the in-process runner), and the runs of each item are counted
// in pg-boss's tables.
//   1. the API replica holding the video event stream is killed (kill -9) while videos render: the
//      page carries on through nginx with the other replica, with no click, and each video is made
//      once;
//   2. PostgreSQL restarted while several videos render: the run finishes, nothing lost or made twice;
//   3. one user's 30-video backlog: another user's analysis through the PWA is not starved.
import { rmSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import pg from 'pg';
import { apiCall, signInApi } from '../e2e/offline-helpers.js';
import { startServer, E2E_ADMIN, type RunningServer } from '../e2e/server-process.js';
import { fillInfo, openVideoPage, toCandidates } from '../e2e/video-helpers.js';
import { freePort } from '../support/processes.js';
import { clusterProblem, startCluster, startS3, type Cluster, type Companion, type S3Server } from './index.js';

const problem = clusterProblem({ needsBuild: true });
if (problem) console.log(`cluster suite skipped: ${problem}`);

test.describe.configure({ mode: 'serial' });
// .ci/run installs nginx and PostgreSQL's server binaries: a missing one is a broken setup, told
// as a failure rather than a silent skip.
test.beforeAll(() => {
  if (problem !== null) throw new Error(`the cluster suite cannot run here: ${problem}`);
});

const DESIGNER = { account: 'team-designer', password: 'team-designer-pass' };
const OTHER = { account: 'team-other', password: 'team-other-pass' };
const BACKLOG = 30;
const PGBOSS = 'pgboss';

let s3: S3Server | undefined;
let cluster: Cluster | undefined;
let workers: Companion[] = [];
let single: RunningServer | undefined;
const lines: string[] = [];
const say = (line: string) => {
  lines.push(line);
  console.log(line);
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function addUsers(base: string, admin: { account: string; password: string }): Promise<void> {
  const { token } = await signInApi(base, admin.account, admin.password);
  for (const u of [DESIGNER, OTHER]) {
    const r = await apiCall(base, 'POST', '/users/', token, { account: u.account, password: u.password, user_level: 'GENERAL' });
    expect(r.status, r.message).toBeLessThan(300);
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const started = Date.now();
  s3 = await startS3();
  const team = {
    TEAM_MODE: 'true',
    STORAGE_URL: `s3://${s3.bucket}`,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    PGBOSS_SCHEMA: PGBOSS,
    JOB_MAX_WAITING_PER_USER: '100',
  };
  const [c, baseline] = await Promise.all([
    startCluster({ replicas: 2, env: { ...team, ROLE: 'api' } }),
    // The same work on one healthy process: today's embedded default.
    freePort().then((port) => startServer(port, { JOB_MAX_WAITING_PER_USER: '100' })),
  ]);
  cluster = c;
  single = baseline;
  workers = await Promise.all(
    [1, 2].map((i) => c.addCompanion({ name: `worker-${i}`, env: { ROLE: 'worker' }, readyPath: null })),
  );
  await Promise.all([addUsers(c.url, c.admin), addUsers(baseline.url, E2E_ADMIN)]);
  say(`cluster: 2 api replicas + 2 workers + PostgreSQL + S3, and the single process, started in ${seconds(Date.now() - started)}`);
});

// Playwright hands testInfo as the second argument only: the first (fixtures) is unused.
// eslint-disable-next-line no-empty-pattern
test.afterAll(async ({}, testInfo) => {
  for (const line of lines) console.log(`generation cluster: ${line}`);
  if (testInfo.status !== testInfo.expectedStatus || process.env.CLUSTER_LOGS)
    for (const c of cluster?.companions ?? []) console.log(`--- ${c.name} ---\n${c.log().split('\n').slice(-30).join('\n')}`);
  await cluster?.teardown();
  await s3?.stop();
  await single?.stop();
  if (single) rmSync(single.dataDir, { recursive: true, force: true });
});

/** Runs one statement on the cluster's database. */
async function query<R extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: cluster!.databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

interface JobCount {
  key: string;
  /** pg-boss jobs of the item: one per run we started (a retry is a new job). */
  jobs: number;
  /** Runs the engine itself started again (a worker that died mid-job). */
  retries: number;
  /** Jobs that ended with the work done: exactly one for an item made once. */
  done: number;
}

/**
 * pg-boss's jobs of each item in the lane queues (pg-boss 12 keeps finished jobs in its job table
 * until it deletes them, days later: there is no archive; a dead-letter copy is no run).
 */
async function runsOf(keys: string[]): Promise<Map<string, JobCount>> {
  const rows = await query<{ key: string; jobs: string; retries: string; done: string }>(
    `SELECT singleton_key AS key, count(*) AS jobs, sum(retry_count) AS retries,
            count(*) FILTER (WHERE state = 'completed' AND output->>'outcome' = 'completed') AS done
       FROM ${PGBOSS}.job WHERE name LIKE 'loom-lane-%' AND singleton_key = ANY($1)
      GROUP BY singleton_key`,
    [keys],
  );
  return new Map(rows.map((r) => [r.key, { key: r.key, jobs: Number(r.jobs), retries: Number(r.retries), done: Number(r.done) }]));
}

/**
 * Every video row completed with one stored result, and one job of each that did the work; with
 * `oneRun` no other run either. Answers the runs of each item, for the report.
 */
async function expectMadeOnce(videoIds: number[], o: { oneRun: boolean }): Promise<string> {
  const rows = await query<{ id: number; status: string; result_file_id: string | null }>(
    'SELECT id, status, result_file_id FROM loom.video_generations WHERE id = ANY($1)',
    [videoIds],
  );
  expect(rows.map((r) => r.status)).toEqual(videoIds.map(() => 'completed'));
  expect(new Set(rows.map((r) => r.result_file_id)).size).toBe(videoIds.length);
  const runs = await runsOf(videoIds.map((id) => `video:${id}`));
  for (const id of videoIds) {
    const r = runs.get(`video:${id}`);
    expect(r?.done, `finished jobs of video ${id}`).toBe(1);
    if (o.oneRun) expect(r, `jobs of video ${id}`).toEqual({ key: `video:${id}`, jobs: 1, retries: 0, done: 1 });
  }
  return videoIds.map((id) => runs.get(`video:${id}`)!.jobs + runs.get(`video:${id}`)!.retries).join(', ');
}

async function userId(account: string): Promise<number> {
  const [row] = await query<{ id: number }>('SELECT id FROM loom.users WHERE account = $1', [account]);
  return row!.id;
}

/** The ids of the videos the page shows, newest first, read from the database (the cards carry none). */
async function latestVideos(account: string, count: number): Promise<number[]> {
  const rows = await query<{ id: number }>('SELECT id FROM loom.video_generations WHERE user_id = $1 ORDER BY id DESC LIMIT $2', [
    await userId(account),
    count,
  ]);
  return rows.map((r) => r.id);
}

const portOf = (upstream: string | undefined) => upstream?.split(', ').at(-1)?.split(':').at(-1);

/**
 * A designer's video run: fabric info, model and pattern images, analysis, candidates, video
 * prompts of the first candidate, all three of them rendered. `whileRendering` runs once the
 * videos are under way (with the port of the replica holding their event stream).
 */
async function videoRun(page: Page, base: string, whileRendering?: (streamPort: string) => Promise<void>): Promise<number> {
  const started = Date.now();
  await openVideoPage(page, base, DESIGNER);
  await fillInfo(page);
  await toCandidates(page);
  await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 60_000 });
  await page.getByTestId('candidate-select').first().check();
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('video-prompt-text')).toHaveCount(3, { timeout: 30_000 });
  for (const box of await page.getByTestId('video-prompt-select').all()) await box.check();
  await page.getByTestId('setting-resolution').first().selectOption('512P');
  const events = page.waitForResponse((r) => r.url().includes('/user/video-generations/events'));
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('video-card')).toHaveCount(3, { timeout: 30_000 });
  if (whileRendering) {
    const holder = portOf((await events).headers()['x-loom-upstream']);
    expect(holder).toBeTruthy();
    await expect(page.locator('[data-testid="video-card"][data-status="generating"]').first()).toBeVisible({ timeout: 30_000 });
    await whileRendering(holder!);
  }
  // No click from here: the page finishes by itself.
  await expect(page.getByTestId('complete-message')).toHaveText('3 of 3 videos are ready.', { timeout: 90_000 });
  await expect(page.locator('[data-testid="video-card"][data-status="completed"]')).toHaveCount(3);
  return Date.now() - started;
}

/** Another run in quick mode: analysis, three candidates chosen, a video of each (their first prompt). */
async function quickRun(page: Page, base: string, whileRendering?: () => Promise<void>): Promise<number> {
  const started = Date.now();
  await openVideoPage(page, base, DESIGNER);
  await fillInfo(page);
  await toCandidates(page);
  await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 60_000 });
  for (const n of [0, 1, 2]) await page.getByTestId('candidate-select').nth(n).check();
  await expect(page.getByTestId('selected-count')).toHaveText('3 selected');
  await page.getByTestId('quick-mode').click();
  await expect(page.getByTestId('video-card')).toHaveCount(3, { timeout: 30_000 });
  if (whileRendering) {
    await expect(page.locator('[data-testid="video-card"][data-status="generating"]').first()).toBeVisible({ timeout: 30_000 });
    await whileRendering();
  }
  await expect(page.getByTestId('complete-message')).toHaveText('3 of 3 videos are ready.', { timeout: 90_000 });
  await expect(page.locator('[data-testid="video-card"][data-status="completed"]')).toHaveCount(3);
  return Date.now() - started;
}

test('the API replica holding the video event stream is killed mid-render: the page finishes through the other, each video made once', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const c = cluster!;
  const baselineMs = await videoRun(page, single!.url);

  let killed: Companion | undefined;
  let logAtKill = 0;
  let killedAt = 0;
  const teamMs = await videoRun(page, c.url, async (port) => {
    killed = c.replicas().find((r) => String(r.port) === port);
    expect(killed, `replica on port ${port}`).toBeDefined();
    logAtKill = c.lb.accessLog().length;
    killedAt = Date.now();
    await killed!.kill('SIGKILL');
  });
  const afterKillMs = Date.now() - killedAt;
  const survivor = c.replicas().find((r) => r !== killed)!;
  // The cut stream was the killed replica's; what the page asked afterwards the survivor answered.
  const after = c.lb.accessLog().slice(logAtKill);
  const cut = after.find((e) => e.path.startsWith('/api/user/video-generations/events'));
  expect(portOf(cut?.upstream)).toBe(String(killed!.port));
  const followUps = after.filter((e) => e.path.startsWith('/api/user/video-generations') && e !== cut);
  expect(followUps.length).toBeGreaterThan(0);
  for (const e of followUps) {
    expect(e.status).toBeLessThan(400);
    expect(portOf(e.upstream)).toBe(String(survivor.port));
  }
  const ids = await latestVideos(DESIGNER.account, 3);
  const runs = await expectMadeOnce(ids, { oneRun: true });
  say(
    `replica killed mid-render: ${seconds(teamMs)} (page done ${seconds(afterKillMs)} after the kill) vs ${seconds(baselineMs)} on one healthy process; runs per video: ${runs}`,
  );
  await killed!.start();
});

test('PostgreSQL restarted while videos render: the run finishes, nothing lost or made twice, the page shows every video', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const c = cluster!;
  const baselineMs = await quickRun(page, single!.url);

  let restartMs = 0;
  const teamMs = await quickRun(page, c.url, async () => {
    // Down for a few seconds, as a real restart (or a failover) is: the workers' progress writes
    // and notifications meet it.
    const t = Date.now();
    await c.postgres.stop('fast');
    await new Promise((r) => setTimeout(r, 3_000));
    await c.postgres.start();
    restartMs = Date.now() - t;
  });
  // Three rows for three cards, each completed once with one stored result. A render whose
  // final write met the restart is run again (counted below), never saved twice.
  const ids = await latestVideos(DESIGNER.account, 3);
  const runs = await expectMadeOnce(ids, { oneRun: false });
  expect(workers.every((w) => w.running())).toBe(true);
  say(`PostgreSQL restarted mid-render (stopped, 3 s, started: ${seconds(restartMs)}): ${seconds(teamMs)} vs ${seconds(baselineMs)} on one healthy process; runs per video: ${runs}`);
});

/** Another user's 30 videos, made through the API (3 calls of 10) from the designer's candidates. */
async function makeBacklog(base: string, imageIds: number[]): Promise<void> {
  const { token } = await signInApi(base, DESIGNER.account, DESIGNER.password);
  for (let call = 0; call < BACKLOG / 10; call++) {
    const r = await apiCall(base, 'POST', '/user/video-generations', token, {
      items: Array.from({ length: 10 }, (_, i) => ({ image_id: imageIds[(call * 10 + i) % imageIds.length]!, prompt: `Runway walk ${call * 10 + i}` })),
    });
    expect(r.status, r.message).toBe(201);
  }
}

/** The designer's candidates that made videos (the source images of their latest videos). */
async function imagesOf(base: string): Promise<number[]> {
  const { token } = await signInApi(base, DESIGNER.account, DESIGNER.password);
  const r = await apiCall<{ items: { source_image_id: number | null }[] }>(base, 'GET', '/user/video-generations?limit=6', token);
  return [...new Set(r.data.items.map((v) => v.source_image_id).filter((id): id is number => id !== null))];
}

/** The other user's analysis through the PWA: ms to its first event from the job, and to its six candidates. */
async function otherAnalysis(browser: Browser, base: string): Promise<{ firstEventMs: number; doneMs: number }> {
  // A browser of its own each time: the page keeps its draft per user, and this is a new run.
  const context = await browser.newContext();
  try {
    return await analyse(await context.newPage(), base);
  } finally {
    await context.close();
  }
}

async function analyse(page: Page, base: string): Promise<{ firstEventMs: number; doneMs: number }> {
  await openVideoPage(page, base, OTHER);
  await fillInfo(page);
  const started = Date.now();
  await toCandidates(page);
  // The progress bar passes 2 % (the server's "connecting") with the job's first event.
  await page.waitForFunction(
    () => ((document.querySelector('[data-testid="analysis-progress"] progress') as HTMLProgressElement | null)?.value ?? 0) > 2,
    null,
    { polling: 50, timeout: 60_000 },
  );
  const firstEventMs = Date.now() - started;
  await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 90_000 });
  return { firstEventMs, doneMs: Date.now() - started };
}

test("one user's 30-video backlog on both workers: another user's analysis through the PWA is not starved", async ({ browser }) => {
  test.setTimeout(150_000);
  const c = cluster!;
  const idle = await otherAnalysis(browser, c.url);

  const sources = await imagesOf(c.url);
  expect(sources.length).toBeGreaterThan(0);
  await makeBacklog(c.url, sources);
  // The backlog holds every worker slot of the lane before the other user asks.
  await expect
    .poll(async () => Number((await query<{ n: string }>(`SELECT count(*) AS n FROM ${PGBOSS}.job WHERE name LIKE 'loom-lane-%' AND state = 'active' AND singleton_key LIKE 'video:%'`))[0]!.n), {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(2);
  const busy = await otherAnalysis(browser, c.url);
  const [request] = await query<{ id: number }>('SELECT id FROM loom.generation_requests WHERE user_id = $1 ORDER BY id DESC LIMIT 1', [
    await userId(OTHER.account),
  ]);
  const runs = await runsOf([`analysis:${request!.id}`, `candidates:${request!.id}`]);
  expect([...runs.values()].map((r) => [r.key, r.jobs, r.retries, r.done]).sort()).toEqual([
    [`analysis:${request!.id}`, 1, 0, 1],
    [`candidates:${request!.id}`, 1, 0, 1],
  ].sort());
  const waiting = Number((await query<{ n: string }>(`SELECT count(*) AS n FROM ${PGBOSS}.job WHERE name LIKE 'loom-lane-%' AND state < 'completed' AND singleton_key LIKE 'video:%'`))[0]!.n);

  // The same on one healthy process, with the team's workers (and their backlog) gone from the CPU.
  for (const w of workers) await w.kill();
  const singleSources = await imagesOf(single!.url);
  const singleIdle = await otherAnalysis(browser, single!.url);
  await makeBacklog(single!.url, singleSources);
  await new Promise((r) => setTimeout(r, 1000));
  const singleBusy = await otherAnalysis(browser, single!.url);

  say(
    `analysis behind a ${BACKLOG}-video backlog (${waiting} still waiting or running at its end): first job event ${seconds(busy.firstEventMs)}, six candidates ${seconds(busy.doneMs)} ` +
      `(idle team ${seconds(idle.firstEventMs)} / ${seconds(idle.doneMs)}); one healthy process: ${seconds(singleBusy.firstEventMs)} / ${seconds(singleBusy.doneMs)} ` +
      `(idle ${seconds(singleIdle.firstEventMs)} / ${seconds(singleIdle.doneMs)}); runs per item: analysis 1, candidates 1`,
  );
  expect(busy.firstEventMs).toBeLessThan(5_000);
  expect(busy.doneMs).toBeLessThan(Math.max(30_000, idle.doneMs * 3));
});
