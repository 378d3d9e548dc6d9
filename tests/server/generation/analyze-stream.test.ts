import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeProvider, solidPng, type FakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, multipart, sseEvents, until, type GenerationTestApp, type Part } from './helpers/generation-app.js';

interface ImageView {
  id: number;
  status: string;
  url: string | null;
  thumbnail_url: string | null;
  label: string | null;
  moments_text: string | null;
}
interface RequestView {
  id: number;
  request_id: string;
  status: string;
  images: ImageView[];
  analysis: { summary: string } | null;
  analysis_text: string | null;
  error: { code: string; message: string } | null;
  uploaded_images: { model: { url: string }[]; pattern: { url: string }[] };
}

let fake: FakeProvider;
let t: GenerationTestApp;
let general: { id: number; token: string };
let model: Buffer;
let pattern: Buffer;

const form = (o: { requestId?: string; models?: number; patterns?: number; prompt?: string; extra?: Part[] } = {}): Part[] => [
  { name: 'prompt', value: o.prompt ?? 'A summer dress from this fabric' },
  ...(o.requestId ? [{ name: 'request_id', value: o.requestId }] : []),
  { name: 'fabric_name', value: 'Twill stripe' },
  { name: 'composition', value: '100% cotton' },
  { name: 'language', value: 'en-US' },
  ...Array.from({ length: o.models ?? 1 }, (_, i) => ({ name: 'model_images', value: model, filename: `model-${i}.png`, contentType: 'image/png' })),
  ...Array.from({ length: o.patterns ?? 1 }, (_, i) => ({ name: 'pattern_images', value: pattern, filename: `pattern-${i}.png`, contentType: 'image/png' })),
  ...(o.extra ?? []),
];

beforeAll(async () => {
  fake = createFakeProvider();
  t = await createGenerationApp('sqlite', fake.providers());
  general = await t.user('GENERAL');
  model = await solidPng(40, 60, '#dddddd');
  pattern = await solidPng(32, 32, '#c0392b');
});
afterAll(() => t?.close());
beforeEach(() => {
  Object.assign(fake.switches, { analyser: 'none', images: 'none', imageDelayMs: 0, analyserFailuresLeft: 0 });
});

describe('POST /image-api/analyze-images-json-stream', () => {
  it('streams progress, the analysis text, six saved candidates and complete, in order', async () => {
    const { status, events, response } = await t.stream('/image-api/analyze-images-json-stream', {
      token: general.token,
      form: form({ requestId: 'req-order-1' }),
    });
    expect(status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const types = events.map((e) => (e.type === 'progress' ? `progress:${(e.stage as string) ?? e.message}` : e.type));
    expect(types.slice(0, 3)).toEqual([
      'progress:Connecting to the AI service…',
      'progress:AI engine ready',
      'progress:Generating…',
    ]);
    const streaming = events.filter((e) => e.type === 'streaming').map((e) => e.content).join('');
    expect(streaming).toContain('Analysis (en-US) of 1 model and 1 pattern images.');
    const firstImage = types.indexOf('progress:image_ready');
    expect(types.lastIndexOf('streaming')).toBeLessThan(types.indexOf('progress:analysed'));
    expect(types.indexOf('progress:analysed')).toBeLessThan(firstImage);
    expect(types.filter((x) => x === 'progress:image_ready')).toHaveLength(6);
    expect(types.slice(-2)).toEqual(['progress:Completed', 'complete']);
    // Progress only goes up, and ends at 100.
    const progress = events.filter((e) => e.type === 'progress').map((e) => e.progress as number);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);
    const readyImages = events.filter((e) => e.stage === 'image_ready').map((e) => e.image as ImageView);
    expect(readyImages.every((i) => i.status === 'completed' && i.thumbnail_url && i.url)).toBe(true);

    const data = events.at(-1)!.data as RequestView;
    expect(data).toMatchObject({ request_id: 'req-order-1', status: 'completed', analysis: { summary: expect.any(String) } });
    expect(data.images).toHaveLength(6);
    expect(new Set(data.images.map((i) => i.id)).size).toBe(6);
    expect(data.images[0]).toMatchObject({ moments_text: 'New in: striped twill for spring.', label: 'Candidate 1' });
    expect(data.uploaded_images.model).toHaveLength(1);
    expect(data.uploaded_images.pattern).toHaveLength(1);

    // The thumbnail link serves a small WebP without a bearer header; a tampered link does not.
    const thumb = await t.app.inject({ method: 'GET', url: data.images[0]!.thumbnail_url! });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect((await sharp(thumb.rawPayload).metadata()).format).toBe('webp');
    const full = await t.app.inject({ method: 'GET', url: data.images[0]!.url!, headers: { range: 'bytes=0-7' } });
    expect(full.statusCode).toBe(206);
    expect(full.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const tampered = await t.app.inject({ method: 'GET', url: data.images[0]!.url!.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`) });
    expect(tampered.statusCode).toBe(403);
  });

  it('answers a resent request_id from what is saved, without running it again', async () => {
    const before = fake.calls.analyse;
    const { events } = await t.stream('/image-api/analyze-images-json-stream', { token: general.token, form: form({ requestId: 'req-order-1' }) });
    expect(events.map((e) => e.type)).toEqual(['progress', 'progress', 'complete']);
    expect((events.at(-1)!.data as RequestView).images).toHaveLength(6);
    expect(fake.calls.analyse).toBe(before);
  });

  it('keeps working after the client is cut off; /user/image-requests returns the finished work', async () => {
    fake.switches.imageDelayMs = 60;
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { payload, headers } = multipart(form({ requestId: 'req-cut-1' }));
    const controller = new AbortController();
    const response = await fetch(`${address}/image-api/analyze-images-json-stream`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${general.token}` },
      body: new Uint8Array(payload),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    // Read until the first candidate is saved, then hang up.
    while (!text.includes('"stage":"image_ready"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    await reader.cancel().catch(() => undefined);

    const recovered = await until(
      () => t.call<RequestView[]>('POST', '/api/user/image-requests', { token: general.token, body: { request_ids: ['req-cut-1'] } }),
      (r) => r.body.data[0]?.status === 'completed',
    );
    expect(recovered.status).toBe(200);
    const request = recovered.body.data[0]!;
    expect(request.images.filter((i) => i.status === 'completed')).toHaveLength(6);
    expect(request.analysis_text).toContain('Red and blue stripes');

    const empty = await t.call<RequestView[]>('POST', '/api/user/image-requests', { token: general.token, body: { request_ids: [] } });
    expect(empty.body.data).toEqual([]);
    // Without ids: the latest requests, newest first.
    const latest = await t.call<RequestView[]>('POST', '/api/user/image-requests', { token: general.token, body: { limit: 2 } });
    expect(latest.body.data.map((r) => r.request_id)).toEqual(['req-cut-1', 'req-order-1']);
    // Another user sees none of them.
    const other = await t.user('GENERAL');
    const none = await t.call<RequestView[]>('POST', '/api/user/image-requests', { token: other.token, body: { request_ids: ['req-cut-1'] } });
    expect(none.body.data).toEqual([]);
  });

  it('tells a stream that reconnects to running work where it is: the analysis first, then what follows', async () => {
    fake.switches.images = 'hang';
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
    const open = async () => {
      const { payload, headers } = multipart(form({ requestId: 'req-reconnect-1' }));
      const controller = new AbortController();
      const response = await fetch(`${address}/image-api/analyze-images-json-stream`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${general.token}` },
        body: new Uint8Array(payload),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      let text = '';
      return {
        async readUntil(done: (text: string) => boolean) {
          while (!done(text)) {
            const { value, done: ended } = await reader.read();
            if (ended) break;
            text += new TextDecoder().decode(value);
          }
          return text;
        },
        async cut() {
          controller.abort();
          await reader.cancel().catch(() => undefined);
        },
      };
    };
    // Cut off once the analysis is told; the candidates then hang.
    const first = await open();
    await first.readUntil((text) => text.includes('"stage":"analysed"'));
    await first.cut();

    const second = await open();
    await second.readUntil((text) => (text.match(/^data: /gm) ?? []).length >= 2);
    const cancelled = await t.call('POST', '/image-api/analyze-requests/req-reconnect-1/cancel', { token: general.token });
    expect([200, 409]).toContain(cancelled.status);
    const events = sseEvents(await second.readUntil(() => false));
    const stages = events.map((e) => (e.stage as string | undefined) ?? e.type);
    expect(stages.indexOf('analysed')).toBeGreaterThan(0);
    expect(stages.indexOf('analysed')).toBeLessThan(stages.indexOf('error'));
    expect(events.find((e) => e.stage === 'analysed')).toMatchObject({ analysis: { text: expect.stringContaining('Red and blue stripes') } });
  });

  it('refuses more than 6 model, 6 pattern or 10 images, long text and bad files with a message naming the limit', async () => {
    const refuse = async (parts: Part[]) => {
      const r = await t.call('POST', '/image-api/analyze-images-json-stream', { token: general.token, form: parts });
      return { status: r.status, message: r.body.message };
    };
    expect(await refuse(form({ models: 7, patterns: 0 }))).toEqual({ status: 400, message: 'At most 6 model images; this request has 7' });
    expect(await refuse(form({ models: 1, patterns: 7 }))).toEqual({ status: 400, message: 'At most 6 pattern images; this request has 7' });
    expect(await refuse(form({ models: 6, patterns: 5 }))).toEqual({ status: 400, message: 'At most 10 images in total; this request has 11' });
    expect(await refuse(form({ prompt: 'x'.repeat(1001) }))).toEqual({ status: 400, message: 'prompt must be at most 1000 characters' });
    expect(await refuse(form({ prompt: '   ' }))).toEqual({ status: 400, message: 'prompt is required' });
    expect(await refuse(form({ extra: [{ name: 'composition', value: 'c'.repeat(101) }] }))).toEqual({
      status: 400,
      message: 'composition must be at most 100 characters',
    });
    expect(await refuse(form({ models: 0, patterns: 0 }))).toEqual({ status: 400, message: 'Please upload at least one model or pattern image' });
    const exe = [{ name: 'prompt', value: 'p' }, { name: 'model_images', value: Buffer.from('MZ\x90\x00 not an image'), filename: 'evil.png' }];
    expect(await refuse(exe)).toEqual({ status: 415, message: 'Unsupported image type (evil.png); JPEG, PNG, GIF and WebP are supported' });
    const corrupt = [{ name: 'prompt', value: 'p' }, { name: 'pattern_images', value: pattern.subarray(0, 60), filename: 'cut.png' }];
    expect(await refuse(corrupt)).toEqual({ status: 422, message: 'The image file is damaged and cannot be read (cut.png)' });
    const big = [{ name: 'prompt', value: 'p' }, { name: 'pattern_images', value: Buffer.alloc(10 * 1024 * 1024 + 1, 1), filename: 'big.png' }];
    expect(await refuse(big)).toEqual({ status: 413, message: 'The image is larger than 10 MB (big.png)' });
    // Chinese by default when the request names no language.
    const zh = await t.call('POST', '/image-api/analyze-images-json-stream', {
      token: general.token,
      form: form({ models: 7, patterns: 0 }),
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.body.message).toBe('模特图最多 6 张，本次上传了 7 张');
  });

  it('refuses a sliver of an image (1x40000, 933 bytes) from its header, naming the file, in the language asked', async () => {
    // A cover resize scaled its 1 px side up to the frame first: 17.6 GB and 11 CPU-minutes.
    const sliver = await sharp({ create: { width: 1, height: 40_000, channels: 3, background: '#336699' } }).png().toBuffer();
    expect(sliver.length).toBeLessThan(2000);
    const post = (name: string, data: Buffer, language = 'en-US') =>
      t.call('POST', '/image-api/analyze-images-json-stream', {
        token: general.token,
        form: [{ name: 'prompt', value: 'p' }, { name: 'model_images', value: data, filename: name, contentType: 'image/png' }],
        headers: { 'accept-language': language },
      });
    const r = await post('sliver.png', sliver);
    expect([r.status, r.body.code, r.body.message]).toEqual([
      422,
      422,
      'The image is too narrow: each side must be at least 8 pixels (sliver.png)',
    ]);
    expect(r.response.headers['content-type']).toMatch(/^application\/json/);
    const zh = await post('sliver.png', sliver, 'zh-CN');
    expect([zh.status, zh.body.message]).toEqual([422, '图片太窄：每条边至少需要 8 像素（sliver.png）']);
    // The shape rule every group shares: 8x257 is past 32:1, 8x256 is not.
    const long = await post('long.png', await solidPng(8, 257, '#336699'));
    expect([long.status, long.body.message]).toEqual([
      422,
      'The image is too long and thin: the longer side may be at most 32 times the shorter; please crop it (long.png)',
    ]);
    const edge = await t.stream('/image-api/analyze-images-json-stream', {
      token: general.token,
      form: [{ name: 'prompt', value: 'p' }, { name: 'model_images', value: await solidPng(8, 256, '#336699'), filename: 'edge.png' }],
    });
    expect(edge.status).toBe(200);
    expect(edge.events.at(-1)?.type).toBe('complete');
  });

  it('is refused to designers and to anonymous callers', async () => {
    const designer = await t.user('DESIGNER');
    expect((await t.call('POST', '/image-api/analyze-images-json-stream', { token: designer.token, form: form() })).status).toBe(403);
    expect((await t.call('POST', '/image-api/analyze-images-json-stream', { form: form() })).status).toBe(401);
  });

  it('reports garbage from the analyser as the format error, and a resend of the same request_id retries it', async () => {
    fake.switches.analyser = 'garbage';
    const failed = await t.stream('/image-api/analyze-images-json-stream', { token: general.token, form: form({ requestId: 'req-garbage' }) });
    expect(failed.events.at(-1)).toEqual({
      type: 'error',
      code: 'bad_response',
      message: "Analysis result format error: the AI service's answer could not be read",
    });
    const saved = await t.call<RequestView[]>('POST', '/api/user/image-requests', { token: general.token, body: { request_ids: ['req-garbage'] } });
    expect(saved.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'bad_response' } });

    fake.switches.analyser = 'none';
    const retried = await t.stream('/image-api/analyze-images-json-stream', { token: general.token, form: form({ requestId: 'req-garbage' }) });
    expect(retried.events.at(-1)).toMatchObject({ type: 'complete', data: { status: 'completed', error: null } });
  });

  it('tells quota, safety blocks and a hung provider apart, and never leaves the stream open', async () => {
    const last = async (id: string) =>
      (await t.stream('/image-api/analyze-images-json-stream', { token: general.token, form: form({ requestId: id }) })).events.at(-1);
    fake.switches.analyser = 'quota';
    expect(await last('req-quota')).toEqual({
      type: 'error',
      code: 'quota',
      message: 'Analysis error: the AI service quota or balance is used up; please contact an administrator',
    });
    fake.switches.analyser = 'safety';
    expect(await last('req-safety')).toMatchObject({ type: 'error', code: 'safety' });
    fake.switches.analyser = 'none';
    fake.switches.images = 'safety';
    expect(await last('req-image-safety')).toMatchObject({
      type: 'error',
      code: 'safety',
      message: expect.stringMatching(/^Image generation failed: the content was blocked/),
    });
    fake.switches.images = 'none';
    fake.switches.analyser = 'hang';
    // Runs are capped at 1.5 s and the retry budget is 2 s in these tests: timeout, retry, give up.
    expect(await last('req-hang')).toEqual({ type: 'error', code: 'timeout', message: 'Analysis error: the AI service did not answer in time' });
  }, 20_000);

  it('retries a rate-limited analysis after its Retry-After and says so in a progress event', async () => {
    fake.switches.analyserFailuresLeft = 2;
    const { events } = await t.stream('/image-api/analyze-images-json-stream', { token: general.token, form: form({ requestId: 'req-429' }) });
    expect(events.filter((e) => e.retry_in_ms !== undefined).map((e) => e.reason)).toEqual(['rate_limited', 'rate_limited']);
    expect(events.every((e) => e.retry_in_ms === undefined || (e.retry_in_ms as number) >= 30)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'complete' });
  });
});
