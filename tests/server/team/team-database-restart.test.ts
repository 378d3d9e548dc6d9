// Team mode while PostgreSQL restarts (an upgrade, a failover, the cluster suite's scenario): an
// API replica (ROLE=api) and a worker (ROLE=worker) on a PostgreSQL cluster of the test's own,
// which is stopped and started under them. Neither process may exit on the lost connections, a
// request that arrives while the database does not answer gets the usual 503 with Retry-After
// (which the PWA resends) in the reply shape of its group, and the work carries on once the
// database is back. PostgreSQL server binaries only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import type { UpscaleEnginePort } from '../../../server/modules/upscale/upscale-engine-port.js';
import { ensureAdmin } from '../../../server/modules/users/ensure-admin.js';
import { postgresProblem, startPostgres, type PostgresCluster } from '../../cluster/postgres.js';
import { makeImage, multipart } from '../upscale-service/upscale-helpers.js';
import { testServerEnv, teamServerEnv } from '../helpers/test-config.js';

const problem = postgresProblem();
if (problem) console.warn(`team database restart test skipped: ${problem}`);

const ADMIN = { account: 'restart-admin', password: 'admin-secret' };

const engine: UpscaleEnginePort = {
  listModels: () => Promise.resolve([{ name: 'up2x-conservative', scale: 2, denoise: 'conservative' }]),
  upscale: (input) => Promise.resolve({ data: Buffer.from(input), format: 'png', width: 2, height: 2, scale: 2, durationMs: 1 }),
  close: () => Promise.resolve(),
};

describe.skipIf(problem !== null)('team mode while PostgreSQL restarts', () => {
  let cluster: PostgresCluster;
  let dataDir: string;
  const apps: FastifyInstance[] = [];
  let api: FastifyInstance;
  let token: string;
  let image: Buffer;
  // An 'error' event nobody listens to, or a rejection nobody catches, ends a real process.
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);

  const build = async (role: 'api' | 'worker') => {
    const config = loadConfig({
      ...testServerEnv(dataDir, ADMIN),
      ...teamServerEnv(role, { url: cluster.url(), schema: 'loom', bossSchema: 'loom_jobs' }),
      JWT_SECRET: 'team-restart-secret-0123456789abcdef',
      UPSCALE_THREADS: '1',
    });
    const app = await buildApp(config, {
      generation: {
        runner: { pollMs: 100, budgetMs: 120_000, maxRunMs: 8000 },
        team: { maintenanceIntervalSeconds: 1, expireGraceSeconds: 1 },
      },
      upscaleEngines: () => engine,
    });
    if (role === 'api') await ensureAdmin(config, app.services);
    await app.ready();
    apps.push(app);
    return app;
  };

  const single = (lang = 'en-US') => {
    const body = multipart({ model_name: 'up2x-conservative' }, [{ filename: 'fabric.png', data: image }]);
    return api.inject({
      method: 'POST',
      url: '/upscale-api/upscale/single',
      headers: { ...body.headers, 'accept-language': lang, authorization: `Bearer ${token}` },
      payload: body.payload,
    });
  };
  const me = (lang = 'en-US') =>
    api.inject({ method: 'GET', url: '/api/users/', headers: { 'accept-language': lang, authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    cluster = await startPostgres();
    dataDir = mkdtempSync(path.join(tmpdir(), 'loom-team-restart-'));
    api = await build('api');
    await build('worker');
    const login = await api.inject({ method: 'POST', url: '/api/auth/login-password', payload: ADMIN });
    token = login.json<{ data: { token: string } }>().data.token;
    image = await makeImage('png', 16, 12);
  }, 90_000);

  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  });

  it('answers 503 with Retry-After while the database is down, stays up, and upscales once it is back', async () => {
    expect((await single()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);

    await cluster.stop('fast');
    // The processes' connections were closed under them; give their events and timers a moment.
    await new Promise((r) => setTimeout(r, 1500));

    const upscale = await single('vi-VN');
    expect(upscale.statusCode, upscale.body).toBe(503);
    expect(Number(upscale.headers['retry-after'])).toBeGreaterThan(0);
    expect(upscale.json()).toMatchObject({ status: 'error', code: 'database_unavailable', retry_after: Number(upscale.headers['retry-after']) });
    expect(upscale.json<{ message: string }>().message).toContain('Cơ sở dữ liệu');

    const users = await me('en-US');
    expect(users.statusCode, users.body).toBe(503);
    expect(Number(users.headers['retry-after'])).toBeGreaterThan(0);
    expect(users.json<{ message: string }>().message).toMatch(/database is briefly unavailable/);

    await cluster.start();
    // The first request after the restart may meet a connection the pool has not yet dropped.
    let answered = 0;
    for (let attempt = 0; attempt < 20 && answered !== 200; attempt++) {
      answered = (await single()).statusCode;
      if (answered !== 200) {
        expect(answered).toBe(503);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    expect(answered).toBe(200);
    // Timers that ran while the database was down (heartbeats, sweeps, polls) had their turn.
    await new Promise((r) => setTimeout(r, 3000));
    expect(crashes).toEqual([]);
  }, 90_000);
});
