// DELETE /upscale/jobs/:key, the designer's Cancel of a keyed single upscale: the job stops at once
// instead of outliving its aborted request for the resend grace. On the standalone host with a
// held engine (a job runs until the test lets it go), and once in the companion server with the
// real engine.
import { existsSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import type { HeldEngine } from './held-engine.js';
import { type HeldHost, startHeldHost } from './held-host.js';
import { makeImage, multipart, rawPost, waitFor } from './upscale-helpers.js';

const PWA_ORIGIN = 'https://pwa.example';

/** Long enough to see that a hung-up keyed job is still held by its grace. */
const GRACE_CHECK_MS = 150;

describe('upscale service: cancelling a keyed job (standalone host)', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let engine: HeldEngine;
  let port: number;
  let designer: string;
  let image: Buffer;

  let host: HeldHost;

  beforeAll(async () => {
    host = await startHeldHost({ corsOrigins: [PWA_ORIGIN] });
    ({ t, app, engine, port, designer, image } = host);
  });
  afterAll(async () => {
    await host?.close();
  });
  beforeEach(() => {
    engine.jobs = [];
  });

  const queue = () => app.upscale!.queue;
  const keyed = (key: string, token = designer) => {
    const body = multipart({ model_name: 'up2x-conservative' }, [{ filename: 'k.png', data: image }]);
    return rawPost(
      port,
      '/upscale/single',
      { ...body, headers: { ...body.headers, 'idempotency-key': key } },
      token,
    );
  };
  const cancel = async (key: string, token: string | null = designer) => {
    const r = await app.inject({
      method: 'DELETE',
      url: `/upscale/jobs/${encodeURIComponent(key)}`,
      headers: { 'accept-language': 'en-US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: r.statusCode, body: r.json<Record<string, unknown>>() };
  };
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('frees the place of a waiting job at once, though its client hung up within the grace', async () => {
    const blocker = keyed('blocker');
    await waitFor(() => engine.jobs.length === 1, 'the blocking job to run');
    const waiting = keyed('waiting');
    await waitFor(() => queue().queued === 1, 'the second job to wait');
    waiting.hangUp();
    await expect(waiting.done).rejects.toThrow();
    await pause(GRACE_CHECK_MS);
    expect(queue().queued).toBe(1); // the grace keeps it waiting for a resend

    expect(await cancel('waiting')).toEqual({
      status: 200,
      body: { status: 'success', stopped: true, message: 'Upscale cancelled' },
    });
    expect(queue().queued).toBe(0);
    // Its place is free for another request, and it never runs.
    const next = keyed('next');
    await waitFor(() => queue().queued === 1, 'the next request to wait');
    engine.jobs[0]!.finish();
    expect((await blocker.done).status).toBe(200);
    await waitFor(() => engine.jobs.length === 2, 'the next request to run');
    engine.jobs[1]!.finish();
    expect((await next.done).status).toBe(200);
    expect(engine.jobs).toHaveLength(2);
  });

  it('stops a running job between tiles at once and frees its engine for the next image', async () => {
    const running = keyed('running');
    await waitFor(() => engine.jobs.length === 1, 'the job to run');
    running.hangUp();
    await expect(running.done).rejects.toThrow();
    await pause(GRACE_CHECK_MS);
    expect(engine.jobs[0]!.signal.aborted).toBe(false);

    expect((await cancel('running')).body).toMatchObject({ status: 'success', stopped: true });
    expect(engine.jobs[0]!.signal.aborted).toBe(true);
    await waitFor(() => queue().running === 0, 'the slot to free up');
    const next = keyed('after-running');
    await waitFor(() => engine.jobs.length === 2, 'the next job to run');
    engine.jobs[1]!.finish();
    expect((await next.done).status).toBe(200);
  });

  it('answers a request still connected to the cancelled job with "cancelled"', async () => {
    const connected = keyed('still-connected');
    await waitFor(() => engine.jobs.length === 1, 'the job to run');
    await cancel('still-connected');
    const reply = await connected.done;
    expect(reply.status).toBe(499);
    expect(JSON.parse(reply.body)).toEqual({ status: 'error', code: 'cancelled', message: 'Cancelled' });
    await waitFor(() => queue().running === 0, 'the slot to free up');
  });

  it("refuses to cancel another user's job, which keeps running", async () => {
    const other = (await t.createUser('DESIGNER')).token;
    const job = keyed('owned');
    await waitFor(() => engine.jobs.length === 1, 'the job to run');
    expect(await cancel('owned', other)).toEqual({
      status: 403,
      body: { status: 'error', code: 'forbidden', message: 'No permission' },
    });
    expect(engine.jobs[0]!.signal.aborted).toBe(false);
    // Without the tool's role or a token, the route is closed as /upscale/single is.
    const general = (await t.createUser('GENERAL')).token;
    expect((await cancel('owned', general)).status).toBe(403);
    expect((await cancel('owned', null)).status).toBe(401);
    engine.jobs[0]!.finish();
    expect((await job.done).status).toBe(200);
  });

  it('answers an unknown key with 404 in the service shape', async () => {
    expect(await cancel('never-sent')).toEqual({
      status: 404,
      body: { status: 'error', code: 'not_found', message: 'Resource not found' },
    });
  });

  it('a resend after cancel runs afresh, whether the job was running or had finished', async () => {
    const first = keyed('again');
    await waitFor(() => engine.jobs.length === 1, 'the job to run');
    first.hangUp();
    await expect(first.done).rejects.toThrow();
    await cancel('again');
    const resend = keyed('again');
    await waitFor(() => engine.jobs.length === 2, 'the resend to run its own job');
    engine.jobs[1]!.finish();
    const reply = await resend.done;
    expect(reply.status).toBe(200);
    expect(reply.headers['idempotent-replayed']).toBeUndefined();

    // Finished before the cancel arrived: its kept result is forgotten, not replayed.
    expect(await cancel('again')).toMatchObject({ status: 200, body: { stopped: false } });
    const third = keyed('again');
    await waitFor(() => engine.jobs.length === 3, 'the third send to run its own job');
    engine.jobs[2]!.finish();
    const thirdReply = await third.done;
    expect(thirdReply.status).toBe(200);
    expect(thirdReply.headers['idempotent-replayed']).toBeUndefined();
  });

  it('lets the PWA on another origin send the cancel (CORS allows DELETE)', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/upscale/jobs/some-key',
      headers: {
        origin: PWA_ORIGIN,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(PWA_ORIGIN);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('DELETE');
  });
});

describe('upscale service: cancelling a keyed job in the companion server (real engine)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  it('stops a real job whose client hung up instead of letting it run out its grace', async () => {
    const designer = (await t.createUser('DESIGNER')).token;
    // Many tiles and four recompute passes: long enough to cancel in the middle.
    const body = multipart({ model_name: 'up4x-conservative', tile_mode: 4, cache_mode: 3 }, [
      { filename: 'big.png', data: await makeImage('png', 64, 64) },
    ]);
    const call = rawPost(
      port,
      '/upscale-api/upscale/single',
      { ...body, headers: { ...body.headers, 'idempotency-key': 'real-job' } },
      designer,
    );
    const resultsDir = path.join(t.dataDir, 'upscale-results');
    const before = existsSync(resultsDir) ? readdirSync(resultsDir).length : 0;
    const queue = t.app.upscale!.queue;
    await waitFor(() => queue.running === 1, 'the job to start', 10_000, 1);
    call.hangUp();
    await expect(call.done).rejects.toThrow();
    const r = await t.app.inject({
      method: 'DELETE',
      url: '/upscale-api/upscale/jobs/real-job',
      headers: { authorization: `Bearer ${designer}` },
    });
    expect(r.json()).toMatchObject({ status: 'success', stopped: true });
    // Stopped between tiles: without the cancel the grace would let it finish and store a result.
    await waitFor(() => queue.running === 0, 'the engine to stop');
    // A job that ran on would store its result right after freeing the engine.
    await new Promise((r) => setTimeout(r, 500));
    expect(existsSync(resultsDir) ? readdirSync(resultsDir).length : 0).toBe(before);
  });
});
