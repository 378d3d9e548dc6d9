// Upscaling in team mode on real parts: two ROLE=api replicas behind nginx, two ROLE=worker
// processes (one engine thread each), the suite's own PostgreSQL and the local S3 server. A person
// uploads a 30-image batch through the real PWA in Chromium (via nginx) and clicks Start once:
//   1. the same batch on one healthy ROLE=all process (the embedded default): the reference time;
//   2. one worker killed with kill -9 mid-batch: its job runs on the other worker once the
//      heartbeat is WORKER_STALE_SECONDS old; every image is upscaled exactly once and all 30
//      results appear with no click;
//   3. PostgreSQL restarted mid-batch: the batch finishes, nothing lost or made twice;
//   4. a resumable upload begun through nginx, the API replica that took it killed with kill -9:
//      the rest goes through nginx to the other replica, the stored object is the file, and the
//      upscale call names the upload instead of sending it.
// Runs per image are counted on the workers (their "upscale job started/done" log lines) and in
// the upscale_jobs table. Each scenario's time is printed against the single process's.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import sharp from 'sharp';
import { makePng } from '../e2e/image-processing-helpers.js';
import { signInApi } from '../e2e/offline-helpers.js';
import { REPO_ROOT } from '../support/processes.js';
import { removeDir } from './cleanup.js';
import {
  clusterProblem,
  startCluster,
  startCompanion,
  startS3,
  type Cluster,
  type Companion,
  type S3Server,
} from './index.js';

const BATCH = 30;
const STALE_SECONDS = 3;
const modelsReady = existsSync(path.join(REPO_ROOT, '.cache', 'models', 'models-se'));
const problem =
  clusterProblem({ needsBuild: true }) ?? (modelsReady ? null : 'no Real-CUGAN models under .cache/models (npm run models:fetch)');
if (problem) console.log(`cluster upscale suite skipped: ${problem}`);

test.describe.configure({ mode: 'serial' });
// .ci/run installs nginx and PostgreSQL's server binaries: a missing one is a broken setup, told
// as a failure rather than a silent skip.
test.beforeAll(() => {
  if (problem !== null) throw new Error(`the cluster suite cannot run here: ${problem}`);
});

let s3: S3Server;
let cluster: Cluster;
let workers: Companion[] = [];
let single: Companion;
let singleDir: string;
const timings: Record<string, number> = {};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const started = Date.now();
  s3 = await startS3();
  const s3Env = {
    STORAGE_URL: `s3://${s3.bucket}/team`,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
  cluster = await startCluster({
    replicas: 2,
    env: {
      TEAM_MODE: 'true',
      ROLE: 'api',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      WORKER_STALE_SECONDS: String(STALE_SECONDS),
      // A batch of 30 from one person waits in the team's queue (the PWA sends three at a time).
      UPSCALE_MAX_QUEUE: '50',
      ...s3Env,
    },
  });
  workers = await Promise.all(
    [1, 2].map((n) =>
      cluster.addCompanion({
        name: `worker-${n}`,
        readyPath: null,
        env: { ROLE: 'worker', UPSCALE_THREADS: '1', UPSCALE_CONCURRENCY: '1', LOG_LEVEL: 'info' },
      }),
    ),
  );
  for (const w of workers) await waitForLog(w, /worker is running/i, 90_000);
  // One healthy process of the embedded default (SQLite, local disk), the whole machine's cores.
  singleDir = mkdtempSync(path.join(tmpdir(), 'loom-single-'));
  single = await startCompanion({
    name: 'single',
    logDir: cluster.logDir,
    env: {
      DATA_DIR: singleDir,
      JWT_SECRET: cluster.jwtSecret,
      ADMIN_ACCOUNT: cluster.admin.account,
      ADMIN_PASSWORD: cluster.admin.password,
      STATIC_DIR: path.join(REPO_ROOT, 'dist'),
      LOG_LEVEL: 'warn',
      LOGIN_MAX_ATTEMPTS: '1000',
      UPSCALE_MAX_QUEUE: '50',
    },
  });
  timings.startMs = Date.now() - started;
});

test.afterAll(async () => {
  await single?.stop().catch(() => undefined);
  if (singleDir) removeDir(singleDir);
  await cluster?.teardown();
  await s3?.stop();
  console.log(`cluster upscale timings: ${JSON.stringify(timings)}`);
});

function waitForLog(c: Companion, pattern: RegExp, timeoutMs: number, from = 0): Promise<void> {
  return expect
    .poll(
      () => {
        if (!c.running()) throw new Error(`${c.name} exited:\n${c.log().slice(-2000)}`);
        return pattern.test(c.log().slice(from));
      },
      { timeout: timeoutMs, intervals: [100] },
    )
    .toBe(true);
}

/** Signs in through the API and leaves the session where the PWA keeps it, then opens the page. */
async function openImageProcessing(page: Page, base: string): Promise<void> {
  const res = await fetch(`${base}/api/auth/login-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: cluster.admin.account, password: cluster.admin.password }),
  });
  const body = (await res.json()) as { data: { token: string; refresh_token?: string; user: { account: string } } };
  await page.goto(`${base}/config.json`);
  await page.evaluate((grant) => {
    localStorage.setItem('token', grant.token);
    if (grant.refresh_token) localStorage.setItem('refreshToken', grant.refresh_token);
    localStorage.setItem('isLoggedIn', 'true');
    localStorage.setItem('username', grant.user.account);
    localStorage.setItem('userInfo', JSON.stringify(grant.user));
    localStorage.setItem('language', 'en-US');
  }, body.data);
  await page.goto(`${base}/#/image-processing`);
  await expect(page.getByTestId('image-processing-page')).toBeVisible();
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible({ timeout: 30_000 });
}

const batch = (prefix: string, seed: number) =>
  Array.from({ length: BATCH }, (_, i) => ({
    name: `${prefix}-${String(i + 1).padStart(2, '0')}.png`,
    mimeType: 'image/png',
    buffer: makePng(96, 72, seed + i),
  }));

const completed = (page: Page) => page.locator('[data-testid="result-card"][data-status="completed"]');

/** Uploads the batch, clicks Start once and answers when the page first shows `whenDone` completed. */
async function startBatch(page: Page, prefix: string, seed: number): Promise<number> {
  await page.getByTestId('upload-input').setInputFiles(batch(prefix, seed));
  await expect(page.getByTestId('pending-file')).toHaveCount(BATCH);
  const t = Date.now();
  await page.getByTestId('start-upscale').click();
  return t;
}

async function allCompleted(page: Page, started: number, prefix: string): Promise<number> {
  // No click after Start: every result appears by itself.
  try {
    await expect(completed(page)).toHaveCount(BATCH, { timeout: 120_000 });
  } catch (error) {
    // textContent: a card off screen is not rendered (content-visibility), so it has no innerText.
    const failedCards = await page
      .locator('[data-testid="result-card"][data-status="failed"]')
      .evaluateAll((cards) => cards.map((c) => `${c.getAttribute('data-name')}: ${c.querySelector('[data-testid="item-error"]')?.textContent ?? ''}`));
    console.log(`failed cards: ${JSON.stringify(failedCards)}`);
    if (prefix !== 'single') {
      const refused = cluster.lb.accessLog().filter((e) => e.status >= 400);
      console.log(`refused through nginx: ${JSON.stringify(refused.slice(-10))}`);
      for (const r of cluster.replicas())
        console.log(`--- ${r.name} (${r.running() ? 'running' : 'exited'}) ---\n${r.log().split('\n').slice(-25).join('\n').slice(-6000)}`);
    }
    if (prefix !== 'single') {
      const open = (await jobRows(prefix)).filter((r) => r.status !== 'completed');
      console.log(`unfinished rows: ${JSON.stringify(open)}`);
      for (const w of workers) console.log(`--- ${w.name} ---\n${w.log().split('\n').filter((l) => !l.includes('upscale job')).slice(-30).join('\n')}`);
    }
    throw error;
  }
  await expect(page.locator('[data-testid="result-card"][data-status="failed"]')).toHaveCount(0);
  return Date.now() - started;
}

interface WorkerLine {
  msg: string;
  upscaleJobId?: number;
  workerId?: string;
}

/** Engine runs per upscale job on the workers since `from` (log offsets): started and done. */
function runsOnWorkers(from: number[]): {
  started: Map<number, string[]>;
  done: Map<number, string[]>;
  /** each worker's ids in upscale_jobs.worker_id, by worker name */
  workerIds: Map<string, Set<string>>;
} {
  const started = new Map<number, string[]>();
  const done = new Map<number, string[]>();
  const workerIds = new Map<string, Set<string>>();
  workers.forEach((w, i) => {
    for (const line of w.log().slice(from[i]).split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry: WorkerLine;
      try {
        entry = JSON.parse(line) as WorkerLine;
      } catch {
        continue;
      }
      if (entry.upscaleJobId === undefined) continue;
      if (entry.workerId !== undefined) workerIds.set(w.name, (workerIds.get(w.name) ?? new Set()).add(entry.workerId));
      const into = entry.msg === 'upscale job started' ? started : entry.msg === 'upscale job done' ? done : undefined;
      into?.set(entry.upscaleJobId, [...(into.get(entry.upscaleJobId) ?? []), w.name]);
    }
  });
  return { started, done, workerIds };
}

/** The batch's rows in upscale_jobs: one per image, each completed. */
async function jobRows(prefix: string): Promise<{ id: number; filename: string; status: string; worker_id: string }[]> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    const r = await client.query<{ id: number; filename: string; status: string; worker_id: string }>(
      `SELECT id::int AS id, filename, status, worker_id FROM "${cluster.schema}".upscale_jobs WHERE filename LIKE $1 ORDER BY filename`,
      [`${prefix}-%`],
    );
    return r.rows;
  } finally {
    await client.end();
  }
}

async function expectEachImageOnce(prefix: string, from: number[], killed?: string): Promise<string> {
  const rows = await jobRows(prefix);
  expect(rows).toHaveLength(BATCH);
  expect(new Set(rows.map((r) => r.filename)).size).toBe(BATCH);
  expect(rows.every((r) => r.status === 'completed')).toBe(true);
  const { started, done, workerIds } = runsOnWorkers(from);
  // A worker killed between a job's completing write and its "done" line leaves the line out (the
  // row comes first, see team-upscale-jobs.ts): that job is the killed worker's by its row, and was
  // started there last. At most the one job it was in the middle of.
  const unlogged = rows.filter((r) => !done.has(r.id));
  if (killed) {
    expect(unlogged.length, `jobs completed with no "done" line: ${JSON.stringify(unlogged)}`).toBeLessThanOrEqual(1);
    for (const r of unlogged) {
      expect([...(workerIds.get(killed) ?? [])]).toContain(r.worker_id);
      expect(started.get(r.id)?.at(-1)).toBe(killed);
      done.set(r.id, [killed]);
    }
  }
  expect(done.size).toBe(BATCH);
  for (const [id, by] of done) expect(by, `runs of upscale job ${id}`).toHaveLength(1);
  const restarted = [...started].filter(([, by]) => by.length > 1);
  const perWorker = workers.map((w) => `${w.name} ${[...done.values()].filter((by) => by[0] === w.name).length}`).join(', ');
  return `${done.size} images, each finished once (${perWorker}); ${restarted.length} started again after an interruption`;
}

test('the batch on one healthy ROLE=all process (reference)', async ({ page }) => {
  test.setTimeout(150_000);
  await openImageProcessing(page, single.url);
  const t = await startBatch(page, 'single', 100);
  timings.singleMs = await allCompleted(page, t, 'single');
  console.log(`single ROLE=all process (UPSCALE_THREADS = all cores): ${BATCH} images in ${(timings.singleMs / 1000).toFixed(1)} s`);
});

test('a worker killed with kill -9 mid-batch: every image once, all 30 results with no click', async ({ page }) => {
  test.setTimeout(150_000);
  await openImageProcessing(page, cluster.url);
  const from = workers.map((w) => w.log().length);
  const t = await startBatch(page, 'kill', 200);
  // Mid-batch: some results are in and the victim is in the middle of an image.
  await expect.poll(() => completed(page).count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(5);
  const victim = workers[0]!;
  await expect
    .poll(
      () => {
        const { started, done } = runsOnWorkers(from);
        return [...started].some(([id, by]) => by.at(-1) === victim.name && !done.has(id));
      },
      { timeout: 30_000, intervals: [20] },
    )
    .toBe(true);
  const before = await completed(page).count();
  await victim.kill('SIGKILL');
  timings.killAtResults = before;
  timings.killMs = await allCompleted(page, t, 'kill');
  const summary = await expectEachImageOnce('kill', from, victim.name);
  console.log(
    `worker killed after ${before} of ${BATCH} results: ${(timings.killMs / 1000).toFixed(1)} s vs ${(timings.singleMs! / 1000).toFixed(1)} s on one process; ${summary}`,
  );
  // Back for the next scenario, as a supervisor would bring it.
  const offset = victim.log().length;
  await victim.start();
  await waitForLog(victim, /worker is running/i, 90_000, offset);
});

// Requests that meet the restart are answered 503 with Retry-After (which the PWA resends), and
// no replica exits on the connections the database closes under it.
test('PostgreSQL restarted mid-batch: the batch finishes, nothing lost or made twice', async ({ page }) => {
  test.setTimeout(150_000);
  await openImageProcessing(page, cluster.url);
  const from = workers.map((w) => w.log().length);
  const t = await startBatch(page, 'restart', 300);
  await expect.poll(() => completed(page).count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(5);
  const before = await completed(page).count();
  const r = Date.now();
  await cluster.postgres.restart('fast');
  timings.postgresRestartMs = Date.now() - r;
  timings.restartAtResults = before;
  timings.restartMs = await allCompleted(page, t, 'restart');
  const summary = await expectEachImageOnce('restart', from);
  console.log(
    `PostgreSQL restarted (${timings.postgresRestartMs} ms) after ${before} of ${BATCH} results: ${(timings.restartMs / 1000).toFixed(1)} s vs ${(timings.singleMs! / 1000).toFixed(1)} s on one process; ${summary}`,
  );
});

/** A photo-like PNG of noise: it does not compress, so its parts are real bytes on the wire. */
async function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const portOf = (upstream: string) => upstream.split(', ').at(-1)?.split(':').at(-1);

// Last: it kills an API replica. Team mode's resumable uploads (server/modules/uploads/): the bytes in
// the bucket, the lock on PostgreSQL, so the replica that is left continues what the dead one began.
test('an upload begun at a replica that is then killed is finished through nginx at the other', async () => {
  const { token } = await signInApi(cluster.url, cluster.admin.account, cluster.admin.password);
  const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
  const image = await noisePng(192, 144);
  let sent = 0;

  const created = await fetch(`${cluster.url}/api/uploads/`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(image.length),
      'upload-metadata': ['filename fabric.png', 'filetype image/png', 'purpose upscale']
        .map((pair) => pair.split(' '))
        .map(([k, v]) => `${k} ${Buffer.from(v!).toString('base64')}`)
        .join(','),
    },
  });
  expect(created.status).toBe(201);
  const url = new URL(created.headers.get('location')!, `${cluster.url}/api/uploads/`).href;
  const id = url.split('/').pop()!;

  const patch = (offset: number, data: Buffer) => {
    sent += data.length;
    return fetch(url, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(data),
    });
  };
  const first = Math.floor(image.length * 0.4);
  expect((await patch(0, image.subarray(0, first))).status).toBe(204);
  // nginx writes a request's line once its answer is out, which can be a moment after the client has it.
  const lastPatch = () => cluster.lb.accessLog().findLast((e) => e.method === 'PATCH' && e.path.endsWith(id));
  await expect.poll(() => lastPatch()?.upstream ?? '').not.toBe('');
  const [a, b] = cluster.replicas() as [Companion, Companion];
  const holder = portOf(lastPatch()!.upstream) === String(a.port) ? a : b;
  const other = holder === a ? b : a;

  let t = Date.now();
  await holder.kill('SIGKILL');
  timings.replicaKillMs = Date.now() - t;

  t = Date.now();
  const head = await fetch(url, { method: 'HEAD', headers: tus });
  expect(head.status).toBe(200);
  const offset = Number(head.headers.get('upload-offset'));
  expect(offset).toBe(first);
  const rest = await patch(offset, image.subarray(offset));
  expect(rest.status).toBe(204);
  timings.uploadResumeAfterKillMs = Date.now() - t;
  const ofUpload = () => cluster.lb.accessLog().filter((e) => e.path.endsWith(id) && (e.method === 'HEAD' || e.method === 'PATCH'));
  await expect.poll(() => ofUpload().length).toBe(3);
  for (const e of ofUpload().slice(1)) expect(portOf(e.upstream)).toBe(String(other.port));

  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `team/uploads/${id}` }));
  const stored = Buffer.from(await object.Body!.transformToByteArray());
  client.destroy();
  expect(sha256(stored)).toBe(sha256(image));
  console.log(`bytes sent per byte stored: ${(sent / stored.length).toFixed(3)} (${sent} / ${stored.length})`);

  // The upscale call names the upload; the worker upscales the stored bytes.
  t = Date.now();
  const boundary = `----loom${Date.now().toString(16)}`;
  const form =
    `--${boundary}\r\ncontent-disposition: form-data; name="model_name"\r\n\r\nup2x-conservative\r\n` +
    `--${boundary}\r\ncontent-disposition: form-data; name="image_upload_id"\r\n\r\n${id}\r\n--${boundary}--\r\n`;
  const upscaled = await fetch(`${cluster.url}/upscale-api/upscale/single`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: form,
  });
  const answer = (await upscaled.json()) as { status: string; width: number; height: number };
  expect(upscaled.status, JSON.stringify(answer)).toBe(200);
  expect(answer).toMatchObject({ status: 'success', width: 384, height: 288 });
  timings.upscaleByIdMs = Date.now() - t;
});
