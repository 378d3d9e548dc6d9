// Upscaling through the queue in team mode: two API replicas (ROLE=api) and two workers
// (ROLE=worker) built from the same code on one PostgreSQL schema and one shared data folder, as
// in team-app.test.ts. The workers run counting engines (held until the test lets them go when it
// must see a job running), so each image is seen to be upscaled exactly once and by whom; the
// last suite runs the real Real-CUGAN engine on a tiny image through an API replica and a worker.
// PostgreSQL only.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import type { TeamJobEngine } from '../../../server/jobs/pgboss/team-engine.js';
import { createInputStore } from '../../../server/modules/upscale/input-store.js';
import { createDiskBlobStore } from '../../../server/storage/disk-blob-store.js';
import { UpscaleJobTable } from '../../../server/modules/upscale/team-jobs.js';
import { TeamUpscales, type TeamUpscaleOptions } from '../../../server/modules/upscale/team-upscale.js';
import { sweepInputs, toStoredFailure } from '../../../server/modules/upscale/team-upscale-jobs.js';
import type {
  EngineJobOptions,
  EngineJobResult,
  EngineModel,
  UpscaleEnginePort,
} from '../../../server/modules/upscale/upscale-engine-port.js';
import { ensureAdmin } from '../../../server/modules/users/ensure-admin.js';
import { UpscaleError } from '../../../server/upscale/errors.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';
import { until } from '../generation/helpers/generation-app.js';
import { makeImage, multipart, parseEventStream, rawPost } from '../upscale-service/upscale-helpers.js';
import { testServerEnv, teamServerEnv } from '../helpers/test-config.js';

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;
const ADMIN = { account: 'upscale-admin', password: 'admin-secret' };
const MODELS_READY = existsSync(path.resolve('.cache/models/models-se'));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Counts every run by the input's hash; while `holding`, a run waits for release() or its abort. */
class CountingEngine implements UpscaleEnginePort {
  runs: string[] = [];
  holding = false;
  held: { signal: AbortSignal; finish: () => void }[] = [];
  async listModels(): Promise<EngineModel[]> {
    return [{ name: 'up2x-conservative', scale: 2, denoise: 'conservative' }];
  }
  upscale(input: Buffer, opts: EngineJobOptions): Promise<EngineJobResult> {
    this.runs.push(sha(input));
    const result: EngineJobResult = { data: Buffer.from(input), format: 'png', width: 2, height: 2, scale: 2, durationMs: 1 };
    opts.onProgress?.(0.5);
    if (!this.holding) return Promise.resolve(result);
    return new Promise((resolve, reject) => {
      const signal = opts.signal!;
      const onAbort = () => reject(new UpscaleError('cancelled', 'upscale cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
      this.held.push({
        signal,
        finish: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
      });
    });
  }
  release(): void {
    this.holding = false;
    for (const h of this.held.splice(0)) h.finish();
  }
  async close(): Promise<void> {}
}

interface Team {
  schema: string;
  bossSchema: string;
  dataDir: string;
  build(role: 'api' | 'worker', engine?: UpscaleEnginePort, env?: Record<string, string>): Promise<FastifyInstance>;
  close(): Promise<void>;
}

function team(env: Record<string, string> = {}, runner: { maxRunMs: number } = { maxRunMs: 8000 }): Team {
  const schema = uniqueSchema();
  const bossSchema = `${schema}_jobs`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-team-upscale-'));
  const apps: FastifyInstance[] = [];
  return {
    schema,
    bossSchema,
    dataDir,
    async build(role, engine, extra = {}) {
      const config = loadConfig({
        ...testServerEnv(dataDir, ADMIN),
        ...teamServerEnv(role, { url: POSTGRES_URL, schema, bossSchema }),
        JWT_SECRET: 'team-upscale-secret-0123456789abcdef',
        UPSCALE_THREADS: '1',
        ...env,
        ...extra,
      });
      const app = await buildApp(config, {
        generation: {
          runner: { pollMs: 100, budgetMs: 120_000, maxRunMs: runner.maxRunMs },
          team: { maintenanceIntervalSeconds: 1, expireGraceSeconds: 1 },
        },
        ...(engine ? { upscaleEngines: () => engine } : {}),
      });
      if (role === 'api') await ensureAdmin(config, app.services);
      await app.ready();
      apps.push(app);
      return app;
    },
    async close() {
      for (const app of apps) await app.close().catch(() => undefined);
      if (!postgres.skip) {
        await dropSchema(bossSchema);
        await dropSchema(schema);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function designerToken(api: FastifyInstance, account = 'team-designer'): Promise<string> {
  const login = async (body: unknown) =>
    (await api.inject({ method: 'POST', url: '/api/auth/login-password', payload: body as Record<string, unknown> })).json<{
      data: { token: string };
    }>().data.token;
  const admin = await login(ADMIN);
  const created = await api.inject({
    method: 'POST',
    url: '/api/users/',
    headers: { authorization: `Bearer ${admin}` },
    payload: { account, password: 'pass-123456', user_level: 'DESIGNER' },
  });
  expect(created.statusCode).toBe(201);
  return login({ account, password: 'pass-123456' });
}

const single = (app: FastifyInstance, token: string, image: Buffer, headers: Record<string, string> = {}, name = 'fabric.png') => {
  const body = multipart({ model_name: 'up2x-conservative' }, [{ filename: name, data: image }]);
  return app.inject({
    method: 'POST',
    url: '/upscale-api/upscale/single',
    headers: { ...body.headers, 'accept-language': 'en-US', authorization: `Bearer ${token}`, ...headers },
    payload: body.payload,
  });
};

describe.skipIf(postgres.skip)('upscaling through the queue: two API replicas and two workers', () => {
  const t = team({ UPSCALE_MAX_QUEUE: '1' });
  let api1: FastifyInstance;
  let api2: FastifyInstance;
  let worker1: FastifyInstance;
  let worker2: FastifyInstance;
  let engine1: CountingEngine;
  let engine2: CountingEngine;
  let token: string;
  let images: Buffer[];
  let table: UpscaleJobTable;

  const rows = async () =>
    (await sql<{ id: number; status: string; clients: number }>`SELECT id, status, clients FROM upscale_jobs ORDER BY id`.execute(api1.db.kysely)).rows;
  const allRuns = () => [...engine1.runs, ...engine2.runs];

  beforeAll(async () => {
    if (postgres.skip) return;
    api1 = await t.build('api');
    api2 = await t.build('api');
    engine1 = new CountingEngine();
    engine2 = new CountingEngine();
    worker1 = await t.build('worker', engine1);
    worker2 = await t.build('worker', engine2);
    token = await designerToken(api1);
    images = await Promise.all(Array.from({ length: 8 }, (_, i) => makeImage('png', 16 + i, 12)));
    table = new UpscaleJobTable(api1.db.kysely, () => new Date(), 30_000);
  }, 60_000);

  afterAll(() => t.close());

  it('answers a single upscale on an API replica with today\'s JSON while a worker runs it, and any replica serves its link', async () => {
    const r = await single(api1, token, images[0]!);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['filename', 'height', 'message', 'scale', 'status', 'url', 'width']);
    expect(body).toMatchObject({ status: 'success', filename: 'fabric_up2x-conservative.png', width: 2, height: 2, scale: 2 });
    expect(body.url).toMatch(/^\/upscale-api\/results\/[A-Za-z0-9_-]{22}\/fabric_up2x-conservative\.png\?expires=\d+&sig=/);
    expect(allRuns()).toEqual([sha(images[0]!)]);
    // The result was written by a worker; the other replica serves the signed link.
    const file = await api2.inject({ method: 'GET', url: body.url as string });
    expect(file.statusCode).toBe(200);
    expect(sha(file.rawPayload)).toBe(sha(images[0]!));
    // The model list comes from the workers' reports (the API replica loads no engine).
    const models = await api2.inject({ method: 'GET', url: '/upscale-api/models', headers: { authorization: `Bearer ${token}` } });
    expect(models.json<{ models: { name: string }[] }>().models.map((m) => m.name)).toEqual(['up2x-conservative']);
    // The input is gone once its job ended.
    await until(async () => readdirSync(path.join(t.dataDir, 'upscale-inputs')).length, (n) => n === 0);
  });

  it('streams a batch through an API replica while both workers share it: every image once, progress from the workers', async () => {
    engine1.runs = [];
    engine2.runs = [];
    engine1.holding = true;
    engine2.holding = true;
    const batch = images.slice(0, 6);
    const body = multipart({ model_name: 'up2x-conservative' }, batch.map((data, i) => ({ field: 'images', filename: `b${i}.png`, data })));
    const answer = api1.inject({
      method: 'POST',
      url: '/upscale-api/upscale/batch',
      headers: { ...body.headers, 'accept-language': 'en-US', authorization: `Bearer ${token}` },
      payload: body.payload,
    });
    // Each worker holds one image: the batch is shared, not run by the process that took it.
    await until(async () => [engine1.held.length, engine2.held.length], ([a, b]) => a! >= 1 && b! >= 1, 15_000);
    engine1.release();
    engine2.release();
    const r = await answer;
    expect(r.statusCode).toBe(200);
    const events = parseEventStream(r.body);
    expect(events.filter((e) => e.type === 'queued')).toHaveLength(6);
    const results = events.filter((e) => e.type === 'result');
    expect(results.map((e) => e.index).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(events.at(-1)).toMatchObject({ type: 'complete', total: 6, succeeded: 6, failed: 0 });
    for (let i = 0; i < 6; i++) {
      const progress = events.filter((e) => e.type === 'progress' && e.index === i).map((e) => e.fraction);
      expect(progress, `progress of image ${i}`).toEqual([0, 0.5]);
    }
    // Every image upscaled exactly once, on both workers together.
    expect(allRuns().sort()).toEqual(batch.map(sha).sort());
    expect(engine1.runs.length).toBeGreaterThan(0);
    expect(engine2.runs.length).toBeGreaterThan(0);
  }, 30_000);

  it("runs another user's single image before the rest of one user's batch", async () => {
    engine1.runs = [];
    engine2.runs = [];
    engine1.holding = true;
    engine2.holding = true;
    const other = await designerToken(api2, 'other-designer');
    const batch = images.slice(0, 6);
    const body = multipart({ model_name: 'up2x-conservative' }, batch.map((data, i) => ({ field: 'images', filename: `f${i}.png`, data })));
    const streamed = api1.inject({
      method: 'POST',
      url: '/upscale-api/upscale/batch',
      headers: { ...body.headers, 'accept-language': 'en-US', authorization: `Bearer ${token}` },
      payload: body.payload,
    });
    // Two of the batch's images run, four wait; then the other user's one image arrives.
    await until(async () => engine1.held.length + engine2.held.length, (n) => n === 2, 15_000);
    const lone = single(api2, other, images[7]!);
    await until(rows, (r) => r.filter((x) => x.status === 'queued').length === 5);
    // The next slot that frees up (one worker's; the other still holds its image) takes the lone
    // image, not the batch's third.
    const freed = engine1.held.length === 1 ? engine1 : engine2;
    freed.held.shift()!.finish();
    await until(async () => freed.held.length, (n) => n === 1, 15_000);
    expect(freed.runs.at(-1)).toBe(sha(images[7]!));
    engine1.release();
    engine2.release();
    expect((await lone).statusCode).toBe(200);
    expect(parseEventStream((await streamed).body).at(-1)).toMatchObject({ type: 'complete', succeeded: 6 });
    expect(allRuns()).toHaveLength(7);
  }, 30_000);

  it('attaches a resend with the same Idempotency-Key at the other replica to the running job: one engine run', async () => {
    engine1.runs = [];
    engine2.runs = [];
    engine1.holding = true;
    engine2.holding = true;
    const key = { 'idempotency-key': 'resend-1' };
    const first = single(api1, token, images[6]!, key);
    await until(async () => engine1.held.length + engine2.held.length, (n) => n === 1, 15_000);
    const second = single(api2, token, images[6]!, key);
    // The resend waits for the same job (two requests on it), then the job may finish.
    await until(rows, (r) => r.at(-1)!.clients === 2);
    expect(await rows().then((r) => r.at(-1)!.status)).toBe('running');
    engine1.release();
    engine2.release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.json<{ url: string }>().url).toBe(a.json<{ url: string }>().url);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(a.headers['idempotency-key']).toBe('resend-1');
    // After it finished: answered from the replay record, by either replica.
    const third = await single(api1, token, images[6]!, key);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.json<{ url: string }>().url).toBe(a.json<{ url: string }>().url);
    expect(allRuns()).toEqual([sha(images[6]!)]);
  }, 30_000);

  it('cancels the job of a client that goes away, on the worker that runs it', async () => {
    await api1.listen({ port: 0, host: '127.0.0.1' });
    const port = (api1.server.address() as AddressInfo).port;
    engine1.holding = true;
    engine2.holding = true;
    const body = multipart({ model_name: 'up2x-conservative' }, [{ filename: 'gone.png', data: images[7]! }]);
    const call = rawPost(port, '/upscale-api/upscale/single', body, token);
    call.done.catch(() => undefined);
    await until(async () => engine1.held.length + engine2.held.length, (n) => n === 1, 15_000);
    const held = [...engine1.held, ...engine2.held][0]!;
    call.hangUp();
    await until(async () => held.signal.aborted, (aborted) => aborted, 10_000);
    await until(rows, (r) => r.at(-1)!.status === 'cancelled');
    engine1.held = [];
    engine2.held = [];
    engine1.release();
    engine2.release();
    await until(async () => readdirSync(path.join(t.dataDir, 'upscale-inputs')).length, (n) => n === 0);
  }, 30_000);

  it('refuses a request past the team-wide queue limit with 503 and Retry-After at every replica', async () => {
    engine1.runs = [];
    engine2.runs = [];
    engine1.holding = true;
    engine2.holding = true;
    // Two workers with one slot each run two; UPSCALE_MAX_QUEUE=1 per live worker lets two wait.
    const accepted = [0, 1, 2, 3].map((i) => single(i % 2 ? api2 : api1, token, images[i]!));
    await until(rows, (r) => r.filter((x) => x.status === 'running').length === 2 && r.filter((x) => x.status === 'queued').length === 2, 15_000);
    for (const api of [api1, api2]) {
      const refused = await single(api, token, images[4]!);
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ status: 'error', code: 'queue_full' });
      const seconds = Number(refused.headers['retry-after']);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(refused.json<{ retry_after: number }>().retry_after).toBe(seconds);
    }
    const load = await table.load();
    expect(load).toMatchObject({ waitingRequests: 2, waitingJobs: 2, liveWorkers: 2, liveSlots: 2 });
    expect(load.runningSince).toHaveLength(2);
    // The estimate: what is left of the running images and the waiting ones, at the median of the
    // team's recent durations (the earlier tests' instant runs here), over the live slots.
    const estimate = new TeamUpscales({ now: () => new Date() } as TeamUpscaleOptions);
    const started = Date.now();
    expect(estimate.retryAfterSeconds({ ...load, runningSince: [started, started], recentDurationsMs: [] })).toBe(10);
    expect(estimate.retryAfterSeconds({ ...load, runningSince: [started, started], recentDurationsMs: [8000, 4000, 6000] })).toBe(12);
    engine1.release();
    engine2.release();
    const answers = await Promise.all(accepted);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(allRuns().sort()).toEqual(images.slice(0, 4).map(sha).sort());
  }, 30_000);

  it('finishes on the other worker the job of a worker killed mid-job, and the client still gets its answer', async () => {
    engine1.runs = [];
    engine2.runs = [];
    engine1.holding = true;
    engine2.holding = true;
    const answer = single(api2, token, images[5]!, {}, 'killed.png');
    await until(async () => engine1.held.length + engine2.held.length, (n) => n === 1, 15_000);
    const [dying, dyingEngine, survivorEngine] =
      engine1.held.length === 1 ? [worker1, engine1, engine2] : [worker2, engine2, engine1];
    survivorEngine.holding = false;
    // Killed without a graceful stop: nothing is handed back; pg-boss's expiry brings the job back.
    await (dying.jobs as TeamJobEngine).crash();
    const r = await answer;
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'success', filename: 'killed_up2x-conservative.png' });
    expect(dyingEngine.runs).toEqual([sha(images[5]!)]);
    expect(survivorEngine.runs).toEqual([sha(images[5]!)]);
    await until(async () => readdirSync(path.join(t.dataDir, 'upscale-inputs')).length, (n) => n === 0);
  }, 60_000);

  it('sweeps inputs a crash left behind, and keeps those an unfinished job needs', async () => {
    const inputs = createInputStore(createDiskBlobStore(t.dataDir));
    const orphan = await inputs.put(Buffer.from('left behind'));
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(path.join(t.dataDir, 'upscale-inputs', orphan), old, old);
    const fresh = await inputs.put(Buffer.from('just stored'));
    expect(await sweepInputs(table, inputs, Date.now())).toBe(1);
    const left = readdirSync(path.join(t.dataDir, 'upscale-inputs'));
    expect(left).toContain(fresh);
    expect(left).not.toContain(orphan);
    await inputs.remove(fresh);
  });
});

describe.skipIf(postgres.skip)('a worker killed mid-upscale, noticed by its heartbeat', () => {
  // A one-second threshold; pg-boss's expiry is two minutes away, so only the heartbeat explains a recovery.
  const t = team({ WORKER_STALE_SECONDS: '1' }, { maxRunMs: 120_000 });
  let api: FastifyInstance;

  beforeAll(async () => {
    if (postgres.skip) return;
    api = await t.build('api');
  }, 60_000);
  afterAll(() => t.close());

  it('finishes the job on the other worker within the threshold and a sweep: one run each, one answer', async () => {
    const engine1 = new CountingEngine();
    const engine2 = new CountingEngine();
    engine1.holding = true;
    const worker1 = await t.build('worker', engine1);
    const token = await designerToken(api, 'recovery-designer');
    const image = await makeImage('png', 24, 18);
    const answer = single(api, token, image, {}, 'recovered.png');
    await until(async () => engine1.held.length, (n) => n === 1, 15_000);
    await t.build('worker', engine2);
    const killedAt = Date.now();
    await (worker1.jobs as TeamJobEngine).crash();
    const r = await answer;
    const recoveryMs = Date.now() - killedAt;
    console.log(`upscale recovery: threshold 1000 ms, answered ${recoveryMs} ms after the worker died`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'success', filename: 'recovered_up2x-conservative.png' });
    expect(engine1.runs).toEqual([sha(image)]);
    expect(engine2.runs).toEqual([sha(image)]);
    // Well before pg-boss's expiry (two minutes).
    expect(recoveryMs).toBeLessThan(60_000);
  }, 60_000);

  it("refuses the late answer of a worker that no longer owns the image's job", async () => {
    const table = new UpscaleJobTable(api.db.kysely, () => new Date(), 1_000);
    const id = await api.db.kysely.transaction().execute((trx) =>
      table.insert(trx, { userId: 1, key: null, fingerprint: null, batchId: null, inputRef: 'late', filename: 'late.png', params: {} }),
    );
    expect(await table.start(id!, 'slow-worker')).toBe(true);
    // Swept while slow: another worker took it.
    expect(await table.start(id!, 'other-worker')).toBe(true);
    const outcome = { resultId: 'r', filename: 'late.png' } as unknown as Parameters<UpscaleJobTable['complete']>[1];
    expect(await table.complete(id!, outcome, 5, 'slow-worker')).toBe(false);
    const failure = toStoredFailure(new Error('engine gone'), { maxPixels: 1_000_000, uploadLimitBytes: 1_000_000 });
    expect(await table.fail(id!, failure, 'slow-worker')).toBe(false);
    expect(await table.complete(id!, outcome, 5, 'other-worker')).toBe(true);
  });
});

describe.skipIf(postgres.skip || !MODELS_READY)('upscaling through the queue with the real Real-CUGAN engine', () => {
  const t = team({}, { maxRunMs: 300_000 });
  let api: FastifyInstance;

  beforeAll(async () => {
    if (postgres.skip || !MODELS_READY) return;
    api = await t.build('api');
    await t.build('worker');
  }, 60_000);
  afterAll(() => t.close());

  it('upscales a tiny image through an API replica and a worker', async () => {
    const token = await designerToken(api);
    const image = await makeImage('png', 20, 14);
    const r = await single(api, token, image);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'success', width: 40, height: 28, scale: 2 });
    const file = await api.inject({ method: 'GET', url: r.json<{ url: string }>().url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
  }, 300_000);
});

if (!MODELS_READY) console.warn('Real-CUGAN team upscale test skipped: no models under .cache/models (npm run models:fetch)');
