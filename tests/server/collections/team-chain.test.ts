// Team mode: a collection created on the API replica runs its whole chain on the worker through
// pg-boss (each next stage queued in the transaction of the move that ended the one before), on
// the built-in engine, each stage's job made once. PostgreSQL only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { ensureAdmin } from '../../../server/modules/users/ensure-admin.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';
import { FAST_RUNNER, until } from '../generation/helpers/generation-app.js';
import { testServerEnv, teamServerEnv } from '../helpers/test-config.js';
import { FAST_LOCAL, collection, collectionBody, tables, untilItems } from './helpers/collection-app.js';

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;
const ADMIN = { account: 'team-admin', password: 'admin-secret' };

describe.skipIf(postgres.skip)('a collection in team mode (API replica and worker)', () => {
  const schema = uniqueSchema();
  const bossSchema = `${schema}_jobs`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-team-collection-'));
  let api: FastifyInstance;
  let worker: FastifyInstance;
  let token: string;

  const build = async (role: 'api' | 'worker') => {
    const config = loadConfig({ ...testServerEnv(dataDir, ADMIN), ...teamServerEnv(role, { url: POSTGRES_URL, schema, bossSchema }) });
    const app = await buildApp(config, {
      generation: {
        runner: { ...FAST_RUNNER, pollMs: 200, maxRunMs: 120_000, budgetMs: 120_000 },
        local: FAST_LOCAL,
        team: { maintenanceIntervalSeconds: 1, expireGraceSeconds: 5 },
      },
    });
    if (role === 'api') await ensureAdmin(config, app.services);
    await app.ready();
    return app;
  };
  const call = async (method: 'POST', url: string, o: { token?: string; body?: unknown }) => {
    const r = await api.inject({
      method,
      url,
      headers: { 'accept-language': 'en-US', ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) },
      ...(o.body === undefined ? {} : { payload: o.body as Record<string, unknown> }),
    });
    return { status: r.statusCode, body: r.json<{ data: { id: number; token: string } }>() };
  };

  beforeAll(async () => {
    if (postgres.skip) return;
    api = await build('api');
    worker = await build('worker');
    const admin = (await call('POST', '/api/auth/login-password', { body: ADMIN })).body.data.token;
    await call('POST', '/api/users/', { token: admin, body: { account: 'team-collector', password: 'pass-123456', user_level: 'GENERAL' } });
    token = (await call('POST', '/api/auth/login-password', { body: { account: 'team-collector', password: 'pass-123456' } })).body.data.token;
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

  it('runs every fabric to its video on the worker, each stage once', async () => {
    const t = { app: api };
    const body = await collectionBody(t, token, 3);
    const created = await call('POST', '/api/collections', { token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    const rows = await untilItems(t, id, (r) => r.every((i) => i.status === 'done' || i.status === 'failed'), 90_000);
    expect(rows.map((i) => [i.status, i.stage, i.error_detail])).toEqual(rows.map(() => ['done', 'video', null]));
    expect((await collection(t, id)).status).toBe('completed');
    const videos = await tables(t).selectFrom('video_generations').select('status').where('id', 'in', rows.map((i) => i.video_id!)).execute();
    expect(videos.map((v) => v.status)).toEqual(['completed', 'completed', 'completed']);

    // Every stage's job went through pg-boss once per fabric and ended there.
    const jobs = await until(
      () =>
        sql<{ key: string; state: string; cls: string }>`
          SELECT singleton_key AS key, state::text AS state, data->>'cls' AS cls FROM ${sql.id(bossSchema, 'job')} WHERE name LIKE 'loom-lane-%'`.execute(api.db.kysely),
      (r) => r.rows.every((row) => row.state === 'completed'),
      10_000,
    );
    const perKind = new Map<string, number>();
    for (const row of jobs.rows) perKind.set(row.key.split(':')[0]!, (perKind.get(row.key.split(':')[0]!) ?? 0) + 1);
    expect(Object.fromEntries(perKind)).toEqual({ analysis: 3, candidates: 3, 'collection-pick': 3, 'video-prompts': 3, video: 3 });
    expect(new Set(jobs.rows.map((r) => r.key)).size).toBe(15);
    // All of them batch work, the analyses too: a person's analysis at the workflow page goes first.
    expect(new Set(jobs.rows.map((r) => r.cls))).toEqual(new Set(['batch']));
  }, 120_000);
});
