// The upscale service alone on its own port (server/upscale-main's app) with the real engine:
// it verifies access tokens issued by the companion server (same secret, same user rows) and
// answers absolute result links on its own origin. (SQLite only.)
import { existsSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUpscaleApp } from '../../../server/modules/upscale/upscale-app.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { makeImage, multipart, rawPost, waitFor } from './upscale-helpers.js';

describe('upscale service on its own host', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    app = await buildUpscaleApp(t.config, { db: t.app.db });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('accepts the companion server tokens and roles, and links results to its own origin', async () => {
    const designer = (await t.createUser('DESIGNER')).token;
    const models = await fetch(`http://127.0.0.1:${port}/models`, {
      headers: { authorization: `Bearer ${designer}` },
    });
    expect(await models.json()).toMatchObject({
      status: 'success',
      models: expect.arrayContaining([expect.objectContaining({ name: 'up2x-conservative' })]),
    });
    const general = (await t.createUser('GENERAL')).token;
    expect(
      (await fetch(`http://127.0.0.1:${port}/models`, { headers: { authorization: `Bearer ${general}` } }))
        .status,
    ).toBe(403);
    const anonymous = await fetch(`http://127.0.0.1:${port}/models`, {
      headers: { 'accept-language': 'en-US' },
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      status: 'error',
      code: 'unauthorized',
      message: 'Login expired, please log in again',
    });

    const r = await rawPost(
      port,
      '/upscale/single',
      multipart({ model_name: 'up2x-conservative' }, [
        { filename: 'a.png', data: await makeImage('png', 24, 16) },
      ]),
      designer,
    ).done;
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body) as { status: string; url: string };
    expect(body.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/results/`));
    const file = await fetch(body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([48, 32]);

    // A disabled account stops working here at once, as on the main server.
    const user = await t.createUser('DESIGNER');
    await t.call('PUT', `/api/users/${user.id}/`, { token: await t.adminToken(), body: { disabled: true } });
    expect(
      (await fetch(`http://127.0.0.1:${port}/models`, { headers: { authorization: `Bearer ${user.token}` } }))
        .status,
    ).toBe(401);
  });

  it('stops a real job whose client hangs up: no result is stored and the engine is free again', async () => {
    const designer = (await t.createUser('DESIGNER')).token;
    const resultsDir = path.join(t.dataDir, 'upscale-results');
    const before = existsSync(resultsDir) ? readdirSync(resultsDir).length : 0;
    // Many tiles and four recompute passes: long enough to hang up in the middle.
    const form = multipart({ model_name: 'up4x-conservative', tile_mode: 4, cache_mode: 3 }, [
      { filename: 'big.png', data: await makeImage('png', 64, 64) },
    ]);
    const call = rawPost(port, '/upscale/single', form, designer);
    await waitFor(() => app.upscale!.queue.running === 1, 'the job to start', 10_000, 1);
    call.hangUp();
    await expect(call.done).rejects.toThrow();
    await waitFor(() => app.upscale!.queue.running === 0, 'the engine to stop');
    expect(existsSync(resultsDir) ? readdirSync(resultsDir).length : 0).toBe(before);
    // The next request runs normally.
    const next = await rawPost(
      port,
      '/upscale/single',
      multipart({ model_name: 'up2x-conservative' }, [
        { filename: 'a.png', data: await makeImage('png', 8, 8) },
      ]),
      designer,
    ).done;
    expect(next.status).toBe(200);
  });

  it('answers even an unparseable URL in the service shape', async () => {
    const badUrl = await app.inject({
      method: 'GET',
      url: '/results/%E0%A4%A/x.png',
      headers: { 'accept-language': 'en-US' },
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({
      status: 'error',
      code: 'bad_request',
      message: 'The request is malformed',
    });
    const missing = await app.inject({
      method: 'GET',
      url: '/nothing',
      headers: { 'accept-language': 'en-US' },
    });
    expect(missing.json()).toEqual({ status: 'error', code: 'not_found', message: 'Resource not found' });
  });
});
