// The image and workshop groups' uploads under a memory budget: a file the form cannot take is
// refused as its part arrives (before the rest of the body is even sent), and a request whose body
// would pass GENERATION_MAX_INFLIGHT_BYTES while another is being read is refused with 503 and
// Retry-After before its body is read. Over a real socket, so a client can stop half-way.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { createFakeProvider, solidPng } from './helpers/fake-providers.js';
import { createGenerationApp, multipart, until, type GenerationTestApp, type Part } from './helpers/generation-app.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const V1 = { 'x-api-version': 'v1' };

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let t: GenerationTestApp;
let port: number;
let general: string;
let admin: string;
let png: Buffer;

beforeAll(async () => {
  const providers = createFakeProvider().providers();
  t = await createGenerationApp('sqlite', providers, undefined, undefined, {
    env: { GENERATION_MAX_INFLIGHT_BYTES: String(MIB) },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  general = (await t.user('GENERAL')).token;
  admin = await t.adminToken();
  png = await solidPng(40, 60, '#dddddd');
});
afterAll(() => t?.close());

/** A valid PNG padded to `bytes` (decoders ignore what follows its end chunk). */
const padded = (bytes: number) => Buffer.concat([png, Buffer.alloc(bytes - png.length)]);

/** A POST whose body the test sends piece by piece; `chunked` declares no length. */
function slowPost(path: string, token: string, form: { payload: Buffer; headers: Record<string, string> }, chunked = false) {
  const headers: Record<string, string | number> = {
    ...form.headers,
    ...V1,
    'accept-language': 'en-US',
    authorization: `Bearer ${token}`,
    ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': form.payload.length }),
  };
  const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers });
  req.on('error', () => undefined);
  let sent = 0;
  const response = new Promise<RawReply>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
  });
  return {
    response,
    sendUpTo(bytes: number) {
      if (bytes > sent) req.write(form.payload.subarray(sent, bytes));
      sent = Math.max(sent, bytes);
    },
    finish: () => req.end(form.payload.subarray(sent)),
    get sent() {
      return sent;
    },
    destroy: () => req.destroy(),
  };
}

/** The answer, or a failure when none came before the rest of the body (the server waited for it). */
function answered(response: Promise<RawReply>): Promise<RawReply> {
  return Promise.race([
    response,
    new Promise<RawReply>((_, reject) => setTimeout(() => reject(new Error('no answer before the rest of the body was sent')), 10_000)),
  ]);
}

/** Where the part of `name` number `nth` (1-based) starts in a form's payload. */
function partStart(payload: Buffer, name: string, nth: number): number {
  let at = -1;
  for (let i = 0; i < nth; i++) {
    at = payload.indexOf(`name="${name}"`, at + 1);
    if (at < 0) throw new Error(`no part ${nth} of ${name}`);
  }
  return at;
}

/**
 * Sends a form up to a little past the start of the refused part, whose later parts are larger
 * than the upload limit: the answer must come without them, and be the count refusal.
 */
async function refusedAsItArrives(path: string, token: string, parts: Part[], refused: { name: string; nth: number }) {
  const oversized = { name: refused.name, value: Buffer.alloc(t.config.uploadLimitBytes + MIB), filename: 'huge.png' };
  const form = multipart([...parts, oversized]);
  const upload = slowPost(path, token, form);
  upload.sendUpTo(partStart(form.payload, refused.name, refused.nth) + 200);
  const reply = await answered(upload.response);
  expect(upload.sent).toBeLessThan(form.payload.length - t.config.uploadLimitBytes);
  upload.destroy();
  return { status: reply.status, body: JSON.parse(reply.body) as { success: boolean; code: number; message: string; data: unknown } };
}

const files = (name: string, n: number): Part[] =>
  Array.from({ length: n }, (_, i) => ({ name, value: png, filename: `${name}-${i + 1}.png` }));
const prompt: Part = { name: 'prompt', value: 'A summer dress' };
const ANALYZE = '/image-api/analyze-images-json-stream';

describe('files refused as their parts arrive', () => {
  it('refuses the 7th model image before the rest of the body is read', async () => {
    const r = await refusedAsItArrives(ANALYZE, general, [prompt, ...files('model_images', 7)], { name: 'model_images', nth: 7 });
    expect(r).toEqual({
      status: 400,
      body: { success: false, code: 400, message: 'At most 6 model images; this request has 7', data: null },
    });
  });

  it('refuses the 7th pattern image before the rest of the body is read', async () => {
    const r = await refusedAsItArrives(ANALYZE, general, [prompt, ...files('pattern_images', 7)], { name: 'pattern_images', nth: 7 });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('At most 6 pattern images; this request has 7');
  });

  it('refuses the 11th image before the rest of the body is read', async () => {
    const r = await refusedAsItArrives(
      ANALYZE,
      general,
      [prompt, ...files('model_images', 6), ...files('pattern_images', 5)],
      { name: 'pattern_images', nth: 5 },
    );
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('At most 10 images in total; this request has 11');
  });

  it("refuses the workshop's 7th image before the rest of the body is read", async () => {
    const r = await refusedAsItArrives(
      '/third-api/workshop/items',
      admin,
      [{ name: 'type', value: 'image' }, ...files('images', 7)],
      { name: 'images', nth: 7 },
    );
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('At most 6 images in total; this request has 7');
  });

  it('gives back every byte once the refusals are answered', async () => {
    await until(async () => t.app.generationUploads.inFlight, (n) => n === 0);
  });
});

describe('GENERATION_MAX_INFLIGHT_BYTES', () => {
  const analyzeForm = (bytes: number) => multipart([prompt, { name: 'model_images', value: padded(bytes), filename: 'm.png' }]);
  const workshopForm = (bytes: number) =>
    multipart([{ name: 'type', value: 'image' }, { name: 'images', value: padded(bytes), filename: 'w.png' }]);
  const busy = (r: RawReply) => {
    expect(r.status).toBe(503);
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(r.body)).toEqual({
      success: false,
      code: 503,
      message: `The server is receiving many uploads; please try again in ${r.headers['retry-after']} s`,
      data: null,
    });
  };

  it('refuses with 503 and Retry-After, before the body is read, an upload past the budget while another is read', async () => {
    const uploads = () => t.app.generationUploads.inFlight;
    // One analysis of 700 KiB is being read.
    const first = slowPost(ANALYZE, general, analyzeForm(700 * KIB));
    first.sendUpTo(32 * KIB);
    await until(async () => uploads(), (n) => n >= 700 * KIB);

    // Another analysis and a workshop item that declare 700 KiB: refused before their bodies are read.
    for (const [path, token, form] of [
      [ANALYZE, general, analyzeForm(700 * KIB)],
      ['/third-api/workshop/items', admin, workshopForm(700 * KIB)],
    ] as const) {
      const second = slowPost(path, token, form);
      second.sendUpTo(32 * KIB);
      busy(await answered(second.response));
      expect(second.sent).toBeLessThan(form.payload.length);
      second.destroy();
    }

    // A chunked one declares nothing: refused once what it has sent passes the budget.
    const form = analyzeForm(700 * KIB);
    const chunked = slowPost(ANALYZE, general, form, true);
    for (let sent = 64 * KIB; sent <= 640 * KIB; sent += 64 * KIB) chunked.sendUpTo(sent);
    busy(await answered(chunked.response));
    expect(chunked.sent).toBeLessThan(form.payload.length);
    chunked.destroy();

    // A small form (a regenerate call's fields) still fits beside the first.
    const small = slowPost('/image-api/regenerate-stream', general, multipart([{ name: 'prompt', value: 'x' }]));
    small.finish();
    expect((await small.response).status).toBe(400);

    // The first is read to its end and runs; its bytes are given back once its files are stored.
    first.finish();
    expect((await first.response).status).toBe(200);
    await until(async () => uploads(), (n) => n === 0);

    // Alone, a request larger than the budget is taken.
    const large = slowPost('/third-api/workshop/items', admin, workshopForm(1536 * KIB));
    large.finish();
    expect((await large.response).status).toBe(201);
    await until(async () => uploads(), (n) => n === 0);
  });

  it('stops at start on a bad value, naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: t.dataDir, GENERATION_MAX_INFLIGHT_BYTES: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: t.dataDir, GENERATION_MAX_INFLIGHT_BYTES: '12' })).toThrow(
      /GENERATION_MAX_INFLIGHT_BYTES: must be at least 1024 bytes/,
    );
    expect(loadConfig({ DATA_DIR: t.dataDir, UPLOAD_LIMIT_BYTES: '2000000' }).generationMaxInflightBytes).toBe(8_000_000);
  });
});
