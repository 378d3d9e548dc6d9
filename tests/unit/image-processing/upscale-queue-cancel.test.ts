// Cancel reaches the upscale service: the queue asks it to stop the job kept under the request's
// Idempotency-Key (which it would otherwise keep for a resend grace), without ever waiting for that
// call or showing its failure, and a Retry after a Cancel never joins the cancelled job.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelUpscaleJob } from '../../../src/workers/upscale-queue/cancel-request';
import { AUTH, PARAMS, createHarness, entries, flush, ok } from './queue-harness';

describe('upscale queue: cancel stops the job on the service', () => {
  it('cancelling an item in flight sends its key; a waiting one that was never sent sends nothing', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(5), PARAMS);
    await flush();
    const inFlightKey = h.pending[1]!.request.idempotencyKey;
    await h.engine.cancel(ids[1]!);
    await h.engine.cancel(ids[4]!); // waiting, never sent
    await flush();
    expect(h.cancelledOnServer).toEqual([inFlightKey]);
    expect(h.statusOf(ids[1]!)).toBe('cancelled');
  });

  it('cancel all sends the keys of every request in flight and of none that never left', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    await h.engine.enqueue(entries(6), PARAMS);
    await flush();
    const keys = h.pending.map((p) => p.request.idempotencyKey);
    await h.engine.cancelAll();
    await flush();
    expect([...h.cancelledOnServer].sort()).toEqual([...keys].sort());
  });

  it('a request cut short by the network, and later resent with its kept key, is stopped on the service too', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const [a, b] = await h.engine.enqueue(entries(2), PARAMS);
    await flush();
    const [pa, pb] = [...h.pending];
    pa!.hooks.onBytesSent();
    pa!.resolve({ kind: 'network', reachedServer: true });
    pb!.resolve(ok());
    await flush();
    expect(h.statusOf(a!)).toBe('interrupted');
    // The service may still hold it in its grace: Cancel tells it to stop.
    await h.engine.cancel(a!);
    expect(h.cancelledOnServer).toEqual([pa!.request.idempotencyKey]);
    expect(h.statusOf(b!)).toBe('completed');
    // Completed items are never cancelled, on the device or the service.
    await h.engine.cancel(b!);
    expect(h.cancelledOnServer).toHaveLength(1);
  });

  it('a call that fails or never answers neither blocks the cancel nor shows an error', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(4), PARAMS);
    await flush();
    h.setCancelOnServer(() => new Promise(() => {})); // the service never answers
    await h.engine.cancel(ids[0]!);
    h.setCancelOnServer(() => Promise.reject(new TypeError('Failed to fetch'))); // offline
    await h.engine.cancel(ids[1]!);
    h.setCancelOnServer(() => {
      throw new Error('thrown before any promise');
    });
    await h.engine.cancel(ids[2]!);
    await flush();
    expect(h.cancelledOnServer).toHaveLength(3);
    for (const id of ids.slice(0, 3)) {
      const item = h.snapshot.items.find((i) => i.id === id)!;
      expect(item.status).toBe('cancelled');
      expect(item.error).toBeUndefined();
    }
    expect(h.snapshot.paused).toBeNull();
    // The window refilled at once.
    expect(h.statusOf(ids[3]!)).toBe('processing');
  });

  it('a Retry after a Cancel runs with a new key, so it never joins the cancelled job', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    const first = h.sent[0]!.idempotencyKey;
    await h.engine.cancel(id!);
    await h.engine.retry(id!);
    await flush();
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]!.idempotencyKey).not.toBe(first);
    expect(h.snapshot.items[0]!.idempotencyKey).toBe(h.sent[1]!.idempotencyKey);
    expect(h.cancelledOnServer).toEqual([first]);
  });

  it('a Retry after cancelling an interrupted request gets a new key too', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const [id] = await h.engine.enqueue(entries(1), PARAMS);
    await flush();
    const first = h.sent[0]!.idempotencyKey;
    h.pending[0]!.hooks.onBytesSent();
    h.pending[0]!.resolve({ kind: 'network', reachedServer: true });
    await flush();
    await h.engine.cancel(id!);
    h.setProbe(true);
    await h.fireTimers();
    await h.engine.retry(id!);
    await flush();
    expect(h.sent.at(-1)!.idempotencyKey).not.toBe(first);
    // Cancelled again in flight: the job under the new key is stopped too.
    await h.engine.cancel(id!);
    expect(h.cancelledOnServer).toEqual([first, h.sent.at(-1)!.idempotencyKey]);
  });

  it('cancelling an item whose retry has not started yet sends nothing: its new key never left', async () => {
    const h = createHarness();
    await h.engine.configure(AUTH);
    const ids = await h.engine.enqueue(entries(4), PARAMS);
    await flush();
    await h.engine.cancel(ids[0]!); // ids[3] takes its place in the window
    await flush();
    await h.engine.retry(ids[0]!); // waits behind the three in flight
    await flush();
    expect(h.statusOf(ids[0]!)).toBe('waiting');
    await h.engine.cancel(ids[0]!);
    expect(h.cancelledOnServer).toHaveLength(1);
  });
});

describe('cancelUpscaleJob', () => {
  const seen: { method?: string; url?: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers });
    res.writeHead(req.url?.endsWith('/gone') ? 404 : 200, { 'content-type': 'application/json' });
    res.end('{"status":"success"}');
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upscale-api/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends DELETE /upscale/jobs/{key} under the service base URL with the bearer token', async () => {
    const status = await cancelUpscaleJob('a b/c', { ...AUTH, baseUrl: base });
    expect(status).toBe(200);
    expect(seen.at(-1)).toMatchObject({
      method: 'DELETE',
      url: '/upscale-api/upscale/jobs/a%20b%2Fc',
      headers: expect.objectContaining({ authorization: 'Bearer t1' }) as unknown,
    });
    expect(await cancelUpscaleJob('gone', { ...AUTH, baseUrl: base })).toBe(404);
  });
});
