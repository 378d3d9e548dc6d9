// The bounded queue and cancel-on-disconnect, on the standalone upscale host (server/upscale-main's
// app) over a real socket, so a client can really hang up.
//
// These tests use a controllable engine instead of the real one (held-engine.ts), as only the
// cancel suite also does: to test the queue limit and cancellation deterministically a job must be
// held running until the test lets it go, which the real engine cannot promise.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HeldEngine } from './held-engine.js';
import { type HeldHost, startHeldHost } from './held-host.js';
import { multipart, parseEventStream, rawPost, waitFor } from './upscale-helpers.js';

describe('upscale service: bounded queue and cancel on disconnect (standalone host)', () => {
  let app: FastifyInstance;
  let engine: HeldEngine;
  let port: number;
  let designer: string;
  let image: Buffer;

  let host: HeldHost;

  beforeAll(async () => {
    host = await startHeldHost();
    ({ app, engine, port, designer, image } = host);
  });
  afterAll(async () => {
    await host?.close();
  });
  beforeEach(() => {
    engine.jobs = [];
  });

  const single = (token = designer) =>
    rawPost(
      port,
      '/upscale/single',
      multipart({ model_name: 'up2x-conservative' }, [{ filename: 'a.png', data: image }]),
      token,
    );
  const queue = () => app.upscale!.queue;

  it('lets one job run and one wait, refuses the next with 503 and Retry-After, then serves the waiter', async () => {
    const first = single();
    await waitFor(() => engine.jobs.length === 1, 'the first job to run');
    const second = single();
    await waitFor(() => queue().queued === 1, 'the second job to wait');

    const third = await single().done;
    expect(third.status).toBe(503);
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const body = JSON.parse(third.body) as {
      status: string;
      code: string;
      message: string;
      retry_after: number;
    };
    expect(body).toMatchObject({
      status: 'error',
      code: 'queue_full',
      retry_after: Number(third.headers['retry-after']),
    });
    expect(body.message).toBe(`The upscale service is busy, please try again in ${body.retry_after} s`);
    // A batch that could not even wait is refused before its stream starts.
    const refusedBatch = await rawPost(
      port,
      '/upscale/batch',
      multipart({ model_name: 'up2x-conservative' }, [{ filename: 'a.png', data: image }]),
      designer,
    ).done;
    expect(refusedBatch.status).toBe(503);
    expect(refusedBatch.headers['content-type']).toContain('application/json');

    engine.jobs[0]!.finish();
    expect((await first.done).status).toBe(200);
    await waitFor(() => engine.jobs.length === 2, 'the waiting job to run');
    engine.jobs[1]!.finish();
    expect((await second.done).status).toBe(200);
    expect(queue().running).toBe(0);
  });

  it('drops a waiting request whose client hangs up: it never runs', async () => {
    const first = single();
    await waitFor(() => engine.jobs.length === 1, 'the first job to run');
    const waiting = single();
    await waitFor(() => queue().queued === 1, 'the second job to wait');
    waiting.hangUp();
    await expect(waiting.done).rejects.toThrow();
    await waitFor(() => queue().queued === 0, 'the waiter to leave the queue');
    engine.jobs[0]!.finish();
    expect((await first.done).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(engine.jobs).toHaveLength(1);
    expect(queue().running).toBe(0);
  });

  it('cancels a running request whose client hangs up and frees its place', async () => {
    const running = single();
    await waitFor(() => engine.jobs.length === 1, 'the job to run');
    running.hangUp();
    await expect(running.done).rejects.toThrow();
    await waitFor(() => engine.jobs[0]!.signal.aborted, 'the engine to see the cancel');
    await waitFor(() => queue().running === 0, 'the slot to free up');
    // The next request runs at once.
    const next = single();
    await waitFor(() => engine.jobs.length === 2, 'the next job to run');
    engine.jobs[1]!.finish();
    expect((await next.done).status).toBe(200);
  });

  const keyed = (key: string) => {
    const body = multipart({ model_name: 'up2x-conservative' }, [{ filename: 'k.png', data: image }]);
    return rawPost(
      port,
      '/upscale/single',
      { ...body, headers: { ...body.headers, 'idempotency-key': key } },
      designer,
    );
  };

  it('keeps a keyed job running when its client hangs up, and a resend with the key joins it: one engine run', async () => {
    const first = keyed('resend-while-running');
    await waitFor(() => engine.jobs.length === 1, 'the keyed job to run');
    first.hangUp();
    await expect(first.done).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 100));
    expect(engine.jobs[0]!.signal.aborted).toBe(false);

    const resend = keyed('resend-while-running');
    await new Promise((r) => setTimeout(r, 100));
    engine.jobs[0]!.finish();
    const reply = await resend.done;
    expect(reply.status).toBe(200);
    expect(reply.headers['idempotent-replayed']).toBe('true');
    expect(reply.headers['idempotency-key']).toBe('resend-while-running');
    expect(engine.jobs).toHaveLength(1);
    expect(queue().running).toBe(0);
  });

  it('answers a resend after the job finished with nobody connected from the stored result', async () => {
    const first = keyed('resend-after-finish');
    await waitFor(() => engine.jobs.length === 1, 'the keyed job to run');
    first.hangUp();
    await expect(first.done).rejects.toThrow();
    engine.jobs[0]!.finish();
    await waitFor(() => queue().running === 0, 'the job to finish');

    const resend = await keyed('resend-after-finish').done;
    expect(resend.status).toBe(200);
    expect(resend.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(resend.body)).toMatchObject({ status: 'success', filename: 'k_up2x-conservative.png' });
    expect(engine.jobs).toHaveLength(1);
  });

  it('says with the model list that a resend with the same key is safe', async () => {
    const r = await app.inject({
      method: 'GET',
      url: '/models',
      headers: { authorization: `Bearer ${designer}` },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['upscale-idempotency']).toBe('upscale-single');
  });

  it('a batch stops where its client hangs up: the running item is cancelled, the rest never run', async () => {
    let seen = '';
    const files = [0, 1, 2].map((i) => ({ field: 'images', filename: `p${i}.png`, data: image }));
    const call = rawPost(
      port,
      '/upscale/batch',
      multipart({ model_name: 'up2x-conservative' }, files),
      designer,
      (text) => {
        seen = text;
      },
    );
    await waitFor(() => engine.jobs.length === 1, 'the first item to run');
    engine.jobs[0]!.progress(0.5);
    engine.jobs[0]!.finish();
    await waitFor(() => engine.jobs.length === 2, 'the second item to run');
    await waitFor(() => parseEventStream(seen).some((e) => e.type === 'result'), 'the first result event');
    const events = parseEventStream(seen);
    expect(events.filter((e) => e.type === 'queued')).toHaveLength(3);
    expect(events).toContainEqual({ type: 'progress', index: 0, fraction: 0.5 });
    expect(events.find((e) => e.type === 'result')).toMatchObject({
      index: 0,
      filename: 'p0_up2x-conservative.png',
    });

    call.hangUp();
    await expect(call.done).rejects.toThrow();
    await waitFor(() => engine.jobs[1]!.signal.aborted, 'the running item to be cancelled');
    await waitFor(() => queue().running === 0, 'the slot to free up');
    await new Promise((r) => setTimeout(r, 100));
    expect(engine.jobs).toHaveLength(2);
  });

  it('a batch waits its turn like any request, holding one waiting place at a time', async () => {
    const blocker = single();
    await waitFor(() => engine.jobs.length === 1, 'the blocking job');
    const files = [0, 1].map((i) => ({ field: 'images', filename: `q${i}.png`, data: image }));
    // The batch takes the one waiting place; a single request then finds the queue full.
    const batch = rawPost(
      port,
      '/upscale/batch',
      multipart({ model_name: 'up2x-conservative' }, files),
      designer,
    );
    await waitFor(() => queue().queued === 1, 'the batch item to wait');
    expect((await single().done).status).toBe(503);
    engine.jobs[0]!.finish();
    await waitFor(() => engine.jobs.length === 2, 'batch item 0');
    engine.jobs[1]!.finish();
    await waitFor(() => engine.jobs.length === 3, 'batch item 1');
    engine.jobs[2]!.finish();
    const events = parseEventStream((await batch.done).body);
    expect(events.at(-1)).toMatchObject({ type: 'complete', succeeded: 2, failed: 0 });
    expect((await blocker.done).status).toBe(200);
  });
});
