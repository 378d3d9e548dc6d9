// Team mode end to end: the same build started twice on one PostgreSQL schema and one shared data
// folder, once as ROLE=api (serves every API group, runs no jobs) and once as ROLE=worker (runs the
// jobs). An analyse request and a video made by the built-in engine go through HTTP on the API
// replica only, while every job runs on the worker. PostgreSQL only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { ensureAdmin } from '../../../server/modules/users/ensure-admin.js';
import { readMp4Facts } from '../../../server/providers/local/index.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';
import { FAST_RUNNER, multipart, sseEvents, until } from '../generation/helpers/generation-app.js';
import { testServerEnv, teamServerEnv } from '../helpers/test-config.js';

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;
const ADMIN = { account: 'team-admin', password: 'admin-secret' };

describe('team mode settings', () => {
  it('refuses TEAM_MODE without DATABASE_URL and a role other than all without TEAM_MODE', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-team-'));
    try {
      expect(() => loadConfig({ DATA_DIR: dataDir, TEAM_MODE: 'true' })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dataDir, TEAM_MODE: 'true' })).toThrow(/TEAM_MODE: true needs DATABASE_URL/);
      expect(() => loadConfig({ DATA_DIR: dataDir, ROLE: 'worker', DATABASE_URL: POSTGRES_URL })).toThrow(/ROLE: worker needs TEAM_MODE=true/);
      expect(() => loadConfig({ DATA_DIR: dataDir, ROLE: 'boss' })).toThrow(/ROLE/);
      expect(() => loadConfig({ DATA_DIR: dataDir, JOB_CONCURRENCY: 'local=two' })).toThrow(/JOB_CONCURRENCY/);
      const embedded = loadConfig({ DATA_DIR: dataDir });
      expect(embedded.role).toBe('all');
      expect(embedded.jobs.engine).toBe('in-process');
      expect(embedded.database.kind).toBe('sqlite');
      const team = loadConfig({ DATA_DIR: dataDir, ROLE: 'api', TEAM_MODE: 'true', DATABASE_URL: POSTGRES_URL, JOB_CONCURRENCY: 'local=1,*=3' });
      expect(team.jobs).toMatchObject({ engine: 'pgboss', schema: 'pgboss', concurrency: { local: 1, '*': 3 } });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(postgres.skip)('an API replica and a worker on one database', () => {
  const schema = uniqueSchema();
  const bossSchema = `${schema}_jobs`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-team-'));
  let api: FastifyInstance;
  let worker: FastifyInstance;
  let token: string;

  const build = async (role: 'api' | 'worker') => {
    const config = loadConfig({
      ...testServerEnv(dataDir, ADMIN),
      ...teamServerEnv(role, { url: POSTGRES_URL, schema, bossSchema }),
    });
    const app = await buildApp(config, {
      generation: {
        runner: { ...FAST_RUNNER, pollMs: 200, maxRunMs: 120_000, budgetMs: 120_000 },
        local: { textPauseMs: 0, video: { fps: 8, maxShortSide: 144, pollIntervalMs: 50 } },
        team: { maintenanceIntervalSeconds: 1, expireGraceSeconds: 5 },
      },
    });
    if (role === 'api') await ensureAdmin(config, app.services);
    await app.ready();
    return app;
  };

  const call = async <T>(method: 'GET' | 'POST', url: string, o: { token?: string; body?: unknown; form?: Buffer; headers?: Record<string, string> } = {}) => {
    const response = await api.inject({
      method,
      url,
      headers: { 'accept-language': 'en-US', ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...o.headers },
      ...(o.form ? { payload: o.form } : o.body === undefined ? {} : { payload: o.body as Record<string, unknown> }),
    });
    return { status: response.statusCode, response, json: () => response.json<{ data: T }>().data };
  };

  beforeAll(async () => {
    if (postgres.skip) return;
    api = await build('api');
    worker = await build('worker');
    const admin = (await call<{ token: string }>('POST', '/api/auth/login-password', { body: ADMIN })).json().token;
    const created = await call('POST', '/api/users/', { token: admin, body: { account: 'team-user', password: 'pass-123456', user_level: 'GENERAL' } });
    expect(created.status).toBe(201);
    token = (await call<{ token: string }>('POST', '/api/auth/login-password', { body: { account: 'team-user', password: 'pass-123456' } })).json().token;
  });

  afterAll(async () => {
    await api?.close();
    await worker?.close();
    if (!postgres.skip) {
      await dropSchema(bossSchema);
      await dropSchema(schema);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('analyses and renders a video through the API replica while the worker runs every job', async () => {
    const model = await sharp({ create: { width: 80, height: 120, channels: 3, background: '#c8b8a8' } }).png().toBuffer();
    const pattern = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#1f4e9c' } }).png().toBuffer();
    const form = multipart([
      { name: 'prompt', value: 'A summer shirt dress' },
      { name: 'request_id', value: 'team-e2e' },
      { name: 'fabric_name', value: 'Cotton poplin' },
      { name: 'language', value: 'en-US' },
      { name: 'model_images', value: model, filename: 'model.png' },
      { name: 'pattern_images', value: pattern, filename: 'pattern.png' },
    ]);
    const analysed = await call('POST', '/image-api/analyze-images-json-stream', { token, form: form.payload, headers: form.headers });
    const events = sseEvents(analysed.response.body);
    const last = events.at(-1) as { type: string; data: { images: { id: number; status: string }[] } };
    expect(last.type, JSON.stringify(last)).toBe('complete');
    // Progress made on the worker reached the stream on the API replica.
    expect(events.some((e) => e.type === 'streaming')).toBe(true);
    expect(last.data.images).toHaveLength(6);

    // The video's stream opens before a worker can take its job, so the worker's progress has to
    // reach it: with the worker running, a video this small could end before the stream began,
    // and a stream that begins after the end sees the video and its end only.
    await worker.close();
    const created = await call<{ id: number }[]>('POST', '/api/user/video-generations', {
      token,
      body: { image_id: last.data.images[0]!.id, prompt: 'The dress sways in a light breeze', duration: 6, resolution: '512P' },
    });
    expect(created.status).toBe(201);
    const id = created.json()[0]!.id;
    const streamed = call('GET', `/api/user/video-generations/events?ids=${id}`, { token });
    worker = await build('worker');
    const stream = await streamed;
    const videoEvents = sseEvents(stream.response.body);
    expect(videoEvents.at(-1)!.type).toBe('complete');
    expect(videoEvents.some((e) => e.type === 'progress')).toBe(true);
    const detail = await until(
      async () => (await call<{ status: string; url: string }>('GET', `/api/user/video-generations/${id}`, { token })).json(),
      (d) => d.status !== 'pending' && d.status !== 'generating',
      60_000,
    );
    expect(detail.status).toBe('completed');
    const mp4 = await api.inject({ method: 'GET', url: detail.url });
    expect(mp4.headers['content-type']).toBe('video/mp4');
    expect(readMp4Facts(mp4.rawPayload).durationSeconds).toBeCloseTo(6, 0);

    // Every job went through pg-boss and ended there; the in-process table was never used.
    // The row completes just before the worker records the job's end: wait for that too.
    const jobs = await until(
      () =>
        sql<{ name: string; state: string; n: number }>`
          SELECT name, state::text AS state, count(*)::int AS n FROM ${sql.id(bossSchema, 'job')} GROUP BY name, state`.execute(api.db.kysely),
      (r) => r.rows.every((row) => row.state === 'completed' || row.name === 'loom-dead'),
      10_000,
    );
    expect(jobs.rows.every((r) => r.state === 'completed' || r.name === 'loom-dead')).toBe(true);
    expect(jobs.rows.reduce((n, r) => n + r.n, 0)).toBe(3);
    const inProcess = await sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs`.execute(api.db.kysely);
    expect(inProcess.rows[0]!.n).toBe(0);
  }, 120_000);

  it('leaves jobs waiting while no worker runs (the API replica runs none) and a worker started later takes them', async () => {
    await worker.close();
    const images = await sql<{ id: number }>`SELECT id FROM generated_images WHERE status = 'completed' ORDER BY id LIMIT 1`.execute(api.db.kysely);
    const created = await call<{ id: number }[]>('POST', '/api/user/video-generations', {
      token,
      body: { image_id: images.rows[0]!.id, prompt: 'A slow turn', duration: 6, resolution: '512P' },
    });
    expect(created.status).toBe(201);
    const id = created.json()[0]!.id;
    // Several of the API replica's poll intervals: nothing may start it there.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await call<{ status: string }>('GET', `/api/user/video-generations/${id}`, { token })).json().status).toBe('pending');
    worker = await build('worker');
    const detail = await until(
      async () => (await call<{ status: string }>('GET', `/api/user/video-generations/${id}`, { token })).json(),
      (d) => d.status === 'completed' || d.status === 'failed',
      60_000,
    );
    expect(detail.status).toBe('completed');
  }, 120_000);
});
