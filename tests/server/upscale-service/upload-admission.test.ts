// Uploads are refused before their bodies are read when the service is busy: a full queue, or
// more upload bytes in memory than UPSCALE_MAX_INFLIGHT_BYTES. Over a real socket with the held
// engine, so a client can stop half-way through its body and a job stays running.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type HeldHost, startHeldHost } from './held-host.js';
import {
  makeImage,
  multipart,
  parseEventStream,
  type RawResponse,
  rawPost,
  waitFor,
} from './upscale-helpers.js';

const KIB = 1024;

/** A valid PNG padded to `bytes` (decoders ignore what follows its end chunk). */
async function paddedPng(bytes: number): Promise<Buffer> {
  const png = await makeImage('png', 8, 8);
  return Buffer.concat([png, Buffer.alloc(bytes - png.length)]);
}

/** A POST whose body the test sends piece by piece; `chunked` declares no length. */
function slowPost(
  host: HeldHost,
  path: string,
  body: { payload: Buffer; headers: Record<string, string> },
  chunked = false,
) {
  const headers: Record<string, string> = {
    ...body.headers,
    'accept-language': 'en-US',
    authorization: `Bearer ${host.designer}`,
  };
  if (chunked) {
    delete headers['content-length'];
    headers['transfer-encoding'] = 'chunked';
  }
  const req = http.request({ host: '127.0.0.1', port: host.port, path, method: 'POST', headers });
  req.on('error', () => undefined);
  let sent = 0;
  const response = new Promise<RawResponse>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
  });
  return {
    response,
    /** sends the body up to `bytes` (of payload) */
    sendUpTo: (bytes: number) => {
      req.write(body.payload.subarray(sent, bytes));
      sent = Math.max(sent, bytes);
    },
    finish: () => req.end(body.payload.subarray(sent)),
    get sent() {
      return sent;
    },
    destroy: () => req.destroy(),
  };
}

/** The response, or a failure when none came within `ms` (the server waited for the body). */
function answeredWithin(response: Promise<RawResponse>, ms: number): Promise<RawResponse> {
  return Promise.race([
    response,
    new Promise<RawResponse>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms before the body was sent`)), ms),
    ),
  ]);
}

const single = (data: Buffer, filename = 'a.png') =>
  multipart({ model_name: 'up2x-conservative' }, [{ filename, data }]);

describe('upscale uploads refused before their bodies are read', () => {
  let host: HeldHost | undefined;
  afterEach(async () => {
    for (const job of host?.engine.jobs ?? []) job.finish();
    await host?.close();
    host = undefined;
  });

  it('answers 503 queue_full with Retry-After while an upload is still being sent, when the queue is full', async () => {
    host = await startHeldHost();
    const h = host;
    const image = await makeImage('png', 8, 8);
    const running = rawPost(h.port, '/upscale/single', single(image), h.designer);
    await waitFor(() => h.engine.jobs.length === 1, 'the first job to run');
    const waiting = rawPost(h.port, '/upscale/single', single(image), h.designer);
    await waitFor(() => h.app.upscale!.queue.queued === 1, 'the second job to wait');

    for (const path of ['/upscale/single', '/upscale/batch']) {
      const body = single(await paddedPng(8 * KIB * KIB));
      const upload = slowPost(h, path, body);
      upload.sendUpTo(64 * KIB);
      const r = await answeredWithin(upload.response, 5_000);
      expect(upload.sent).toBeLessThan(body.payload.length);
      expect(r.status).toBe(503);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(r.body)).toMatchObject({ status: 'error', code: 'queue_full' });
      upload.destroy();
    }
    expect(h.app.upscale!.uploads.inFlight).toBe(image.length * 2);

    h.engine.jobs[0]!.finish();
    expect((await running.done).status).toBe(200);
    await waitFor(() => h.engine.jobs.length === 2, 'the waiting job to run');
    h.engine.jobs[1]!.finish();
    expect((await waiting.done).status).toBe(200);
    expect(h.app.upscale!.uploads.inFlight).toBe(0);
  });

  it('lets a resend of a keyed job join it even when the queue is full', async () => {
    host = await startHeldHost();
    const h = host;
    const image = await makeImage('png', 8, 8);
    const keyed = () => {
      const body = single(image, 'k.png');
      return rawPost(
        h.port,
        '/upscale/single',
        { ...body, headers: { ...body.headers, 'idempotency-key': 'join-when-full' } },
        h.designer,
      );
    };
    const first = keyed();
    await waitFor(() => h.engine.jobs.length === 1, 'the keyed job to run');
    const waiting = rawPost(h.port, '/upscale/single', single(image), h.designer);
    await waitFor(() => h.app.upscale!.queue.queued === 1, 'another job to wait');
    const resend = keyed();
    await new Promise((r) => setTimeout(r, 100));
    h.engine.jobs[0]!.finish();
    const [a, b] = await Promise.all([first.done, resend.done]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBe('true');
    await waitFor(() => h.engine.jobs.length === 2, 'the waiting job to run');
    h.engine.jobs[1]!.finish();
    expect((await waiting.done).status).toBe(200);
  });

  it('refuses uploads beyond UPSCALE_MAX_INFLIGHT_BYTES with 503, declared or chunked, and takes them again once bytes are freed', async () => {
    host = await startHeldHost({ upscale: { maxInflightBytes: 1024 * KIB, maxQueue: 4 } });
    const h = host;
    const uploads = () => h.app.upscale!.uploads.inFlight;

    // One upload of 700 KiB is under way.
    const first = slowPost(h, '/upscale/single', single(await paddedPng(700 * KIB), 'first.png'));
    first.sendUpTo(32 * KIB);
    await waitFor(() => uploads() >= 700 * KIB, 'the first upload to be admitted');

    // A second that declares 700 KiB is refused before its body is read.
    const second = slowPost(h, '/upscale/single', single(await paddedPng(700 * KIB)));
    second.sendUpTo(32 * KIB);
    const refused = await answeredWithin(second.response, 5_000);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'queue_full' });
    second.destroy();

    // A chunked one declares nothing: it is refused once what it has sent passes the budget.
    const chunked = slowPost(h, '/upscale/single', single(await paddedPng(700 * KIB)), true);
    for (let sent = 64 * KIB; sent <= 700 * KIB; sent += 64 * KIB) chunked.sendUpTo(sent);
    const chunkedReply = await answeredWithin(chunked.response, 5_000);
    expect(chunkedReply.status).toBe(503);
    expect(JSON.parse(chunkedReply.body)).toMatchObject({ code: 'queue_full' });
    chunked.destroy();

    // A small one still fits beside the first.
    const small = rawPost(h.port, '/upscale/single', single(await paddedPng(100 * KIB)), h.designer);
    await waitFor(() => h.engine.jobs.length === 1, 'the small upload to run');
    h.engine.jobs[0]!.finish();
    expect((await small.done).status).toBe(200);

    first.finish();
    await waitFor(() => h.engine.jobs.length === 2, 'the first upload to run');
    h.engine.jobs[1]!.finish();
    expect((await first.response).status).toBe(200);
    expect(uploads()).toBe(0);

    // Alone, an upload larger than the budget is taken (a full batch must be able to run).
    const large = rawPost(h.port, '/upscale/single', single(await paddedPng(1500 * KIB)), h.designer);
    await waitFor(() => h.engine.jobs.length === 3, 'the large upload to run');
    h.engine.jobs[2]!.finish();
    expect((await large.done).status).toBe(200);
  });

  it('gives back a batch item’s bytes once the item is done', async () => {
    host = await startHeldHost();
    const h = host;
    const files = [
      { field: 'images', filename: 'b0.png', data: await paddedPng(300 * KIB) },
      { field: 'images', filename: 'b1.png', data: await paddedPng(200 * KIB) },
    ];
    const batch = rawPost(
      h.port,
      '/upscale/batch',
      multipart({ model_name: 'up2x-conservative' }, files),
      h.designer,
    );
    await waitFor(() => h.engine.jobs.length === 1, 'item 0 to run');
    expect(h.app.upscale!.uploads.inFlight).toBe(500 * KIB);
    h.engine.jobs[0]!.finish();
    await waitFor(() => h.engine.jobs.length === 2, 'item 1 to run');
    expect(h.app.upscale!.uploads.inFlight).toBe(200 * KIB);
    h.engine.jobs[1]!.finish();
    const events = parseEventStream((await batch.done).body);
    expect(events.at(-1)).toMatchObject({ type: 'complete', succeeded: 2 });
    expect(h.app.upscale!.uploads.inFlight).toBe(0);
  });
});
