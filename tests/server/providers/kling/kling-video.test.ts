// The Kling video adapter against a local server speaking Kling's documented HTTP API: the JWT
// (verified here with the secret key), image2video task creation, task polling, error codes.
import { decodeProtectedHeader, jwtVerify } from 'jose';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InputImage, ProviderErrorKind, VideoRequest } from '../../../../server/providers/capabilities.js';
import { createKlingVideoGenerator } from '../../../../server/providers/kling/kling-video-generator.js';
import { expectProviderError } from '../provider-assertions.js';
import { pngImage, type RecordedRequest, sendJson, sendText, useProviderTestServer } from '../provider-test-server.js';

const ACCESS_KEY = 'ak-test-0123';
const SECRET_KEY = 'sk-test-secret-4567';

const server = useProviderTestServer();
let firstFrame: InputImage;
let lastFrame: InputImage;

beforeAll(async () => {
  firstFrame = { data: await pngImage(1200, 800), mimeType: 'image/png', role: 'first-frame' };
  lastFrame = { data: await pngImage(900, 600, '#16a085'), mimeType: 'image/png', role: 'last-frame' };
});

const generator = () =>
  createKlingVideoGenerator({ accessKey: ACCESS_KEY, secretKey: SECRET_KEY, baseUrl: server.url, model: 'kling-v2-1', pollIntervalMs: 10 });
const signal = () => new AbortController().signal;
const envelope = (data: unknown, code = 0, message = 'SUCCEED') => ({ code, message, request_id: 'req-1', data });

function request(overrides: Partial<VideoRequest> = {}): VideoRequest {
  return {
    kind: 'standard',
    firstFrame,
    prompt: 'The model walks toward the camera, the hem ripples.',
    camera: ['Tracking shot', 'Zoom in'],
    aspect: 'square',
    durationSeconds: 5,
    resolution: '768P',
    promptOptimizer: true,
    watermark: false,
    ...overrides,
  };
}

async function verifiedToken(sent: RecordedRequest) {
  const authorization = String(sent.headers.authorization);
  expect(authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
  const token = authorization.slice('Bearer '.length);
  expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
  const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET_KEY), { algorithms: ['HS256'], issuer: ACCESS_KEY });
  return payload;
}

describe('Kling video', () => {
  it('creates an image2video task with a JWT signed by the secret key and the frame as bare base64', async () => {
    server.on('POST', '/v1/videos/image2video', (_req, res) =>
      sendJson(res, 200, envelope({ task_id: '867283741759111202', task_status: 'submitted', created_at: 1, updated_at: 1 })));
    const started = await generator().startVideo(request(), signal());
    expect(started).toEqual({ taskId: '867283741759111202', model: 'kling-v2-1' });

    const sent = server.requests[0]!;
    const payload = await verifiedToken(sent);
    const now = Math.floor(Date.now() / 1000);
    expect(payload.exp! - now).toBeGreaterThan(1790);
    expect(payload.exp! - now).toBeLessThanOrEqual(1800);
    expect(now - payload.nbf!).toBeGreaterThanOrEqual(4);
    expect(now - payload.nbf!).toBeLessThanOrEqual(6);

    const body = sent.json as Record<string, string>;
    expect(body).toMatchObject({
      model_name: 'kling-v2-1',
      prompt: 'The model walks toward the camera, the hem ripples. Camera: tracking shot, zoom in.',
      mode: 'std',
      duration: '5',
    });
    expect(body.image_tail).toBeUndefined();
    expect(body.aspect_ratio).toBeUndefined();
    expect(body.image).not.toMatch(/^data:/);
    const meta = await sharp(Buffer.from(body.image!, 'base64')).metadata();
    // Cropped to the asked square.
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(meta.height);
  });

  it('sends first-last-frame as image + image_tail in pro mode and reuses its token', async () => {
    server.on('POST', '/v1/videos/image2video', (_req, res) => sendJson(res, 200, envelope({ task_id: 't2', task_status: 'submitted' })));
    const adapter = generator();
    await adapter.startVideo(request({ kind: 'first-last-frame', lastFrame, resolution: '1080P', durationSeconds: 10, aspect: 'auto', camera: [] }), signal());
    await adapter.startVideo(request({ resolution: '1080P' }), signal());
    const [first, second] = server.requests as [RecordedRequest, RecordedRequest];
    const body = first.json as Record<string, string>;
    expect(body).toMatchObject({ mode: 'pro', duration: '10', prompt: 'The model walks toward the camera, the hem ripples.' });
    expect(Buffer.from(body.image!, 'base64').equals(firstFrame.data)).toBe(true);
    expect(Buffer.from(body.image_tail!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect((second.json as Record<string, string>).mode).toBe('pro');
    expect(second.headers.authorization).toBe(first.headers.authorization);
  });

  it('refuses what Kling cannot make, without a call', async () => {
    await expectProviderError(generator().startVideo(request({ durationSeconds: 6 }), signal()), 'invalid_request', /5 or 10 s/);
    await expectProviderError(generator().startVideo(request({ resolution: '512P' }), signal()), 'invalid_request');
    await expectProviderError(generator().startVideo(request({ kind: 'first-last-frame', lastFrame, resolution: '768P' }), signal()), 'invalid_request');
    await expectProviderError(generator().startVideo(request({ prompt: 'y'.repeat(2500) }), signal()), 'invalid_request', /2500/);
    const narrow = { data: await pngImage(1000, 300), mimeType: 'image/png', role: 'first-frame' as const };
    await expectProviderError(generator().startVideo(request({ firstFrame: narrow, aspect: 'auto' }), signal()), 'invalid_request', /too narrow or too wide/);
    expect(server.requests).toHaveLength(0);
  });

  it('polls submitted, processing, then succeed with the video URL', async () => {
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) => sendJson(res, 200, envelope({ task_id: 't1', task_status: 'submitted' })), 1);
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) => sendJson(res, 200, envelope({ task_id: 't1', task_status: 'processing' })), 1);
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) =>
      sendJson(res, 200, envelope({ task_id: 't1', task_status: 'succeed', task_status_msg: '', task_result: { videos: [{ id: 'v1', url: 'https://cdn.example/v1.mp4', duration: '5.1' }] } })));
    const adapter = generator();
    expect(await adapter.pollVideo('t1', signal())).toEqual({ state: 'queued' });
    expect(await adapter.pollVideo('t1', signal())).toEqual({ state: 'processing' });
    expect(await adapter.pollVideo('t1', signal())).toEqual({
      state: 'succeeded',
      video: { url: 'https://cdn.example/v1.mp4', mimeType: 'video/mp4', durationSeconds: 5.1 },
    });
    await verifiedToken(server.requests[2]!);
  });

  it('reports failed tasks: risk control as safety, others as unavailable', async () => {
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) =>
      sendJson(res, 200, envelope({ task_id: 't1', task_status: 'failed', task_status_msg: 'Failure to pass the risk control system' })), 1);
    const refused = await generator().pollVideo('t1', signal());
    expect(refused.state === 'failed' && refused.error.kind).toBe('safety');
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) =>
      sendJson(res, 200, envelope({ task_id: 't1', task_status: 'failed', task_status_msg: 'internal error' })), 1);
    const broken = await generator().pollVideo('t1', signal());
    expect(broken.state === 'failed' && broken.error.kind).toBe('unavailable');
  });

  it('maps Kling error codes and HTTP trouble', async () => {
    const cases: [number, number, ProviderErrorKind][] = [
      [401, 1002, 'auth'],
      [429, 1102, 'quota'],
      [429, 1302, 'rate_limited'],
      [429, 1303, 'rate_limited'],
      [400, 1301, 'safety'],
      [400, 1201, 'invalid_request'],
      [500, 5000, 'unavailable'],
      [504, 5002, 'timeout'],
    ];
    for (const [status, code, kind] of cases) {
      server.on('POST', '/v1/videos/image2video', (_req, res) => sendJson(res, status, { code, message: `code ${code}`, request_id: 'r' }, { 'retry-after': '3' }), 1);
      const error = await expectProviderError(generator().startVideo(request(), signal()), kind);
      expect(error.message).toContain(`(${code})`);
      if (kind === 'rate_limited') expect(error.retryAfterMs).toBe(3000);
    }
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) => sendText(res, 503, 'Service Unavailable', 'text/plain'), 1);
    await expectProviderError(generator().pollVideo('t1', signal()), 'unavailable');
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) => sendJson(res, 200, envelope({ task_id: 't1', task_status: 'succeed', task_result: { videos: [] } })), 1);
    await expectProviderError(generator().pollVideo('t1', signal()), 'bad_response', /without a URL/);
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) => sendJson(res, 200, { code: 0, message: 'ok' }), 1);
    await expectProviderError(generator().pollVideo('t1', signal()), 'bad_response', /without data/);
    server.on('GET', '/v1/videos/image2video/t1', (_req, res) => sendJson(res, 200, envelope({ task_status: 'teleporting' })), 1);
    await expectProviderError(generator().pollVideo('t1', signal()), 'bad_response', /teleporting/);
  });
});

describe('Kling frame size limit', () => {
  it('sends a 2048 px PNG scan of 9 MB as a frame under Kling\'s 10 MB (the double refuses larger ones with code 1201)', async () => {
    const scan = await sharp({ create: { width: 2048, height: 1400, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    expect(scan.length).toBeGreaterThan(8_000_000);
    server.on('POST', '/v1/videos/image2video', (req, res) => {
      const image = String((req.json as { image?: string }).image ?? '');
      if (image.length > 10 * 1024 * 1024) {
        sendJson(res, 400, envelope(null, 1201, 'image size exceeds the limit of 10MB'));
        return;
      }
      sendJson(res, 200, envelope({ task_id: 't-big', task_status: 'submitted', created_at: 1, updated_at: 1 }));
    });
    const started = await generator().startVideo(request({ firstFrame: { data: scan, mimeType: 'image/png', role: 'first-frame' }, aspect: 'auto' }), signal());
    expect(started.taskId).toBe('t-big');
    expect(server.requests).toHaveLength(1);
    const sent = Buffer.from(String((server.requests[0]!.json as { image: string }).image), 'base64');
    expect((await sharp(sent).metadata()).format).toBe('jpeg');
  });
});
