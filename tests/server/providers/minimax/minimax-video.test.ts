// The MiniMax (Hailuo) video adapter against a local server speaking MiniMax's documented HTTP API:
// task creation, status polling, file retrieval, base_resp error codes, garbage answers.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InputImage, ProviderErrorKind, VideoRequest } from '../../../../server/providers/capabilities.js';
import { createMinimaxVideoGenerator } from '../../../../server/providers/minimax/minimax-video-generator.js';
import { expectProviderError } from '../provider-assertions.js';
import { pngImage, sendJson, sendText, unreachableUrl, useProviderTestServer } from '../provider-test-server.js';

const server = useProviderTestServer();
let firstFrame: InputImage;
let lastFrame: InputImage;

beforeAll(async () => {
  firstFrame = { data: await pngImage(720, 1000), mimeType: 'image/png', role: 'first-frame' };
  lastFrame = { data: await pngImage(800, 800, '#16a085'), mimeType: 'image/png', role: 'last-frame' };
});

const generator = (model = 'MiniMax-Hailuo-02') => createMinimaxVideoGenerator({ apiKey: 'mm-test-key', baseUrl: server.url, model, pollIntervalMs: 10 });
const ok = { status_code: 0, status_msg: 'success' };
const signal = () => new AbortController().signal;

function request(overrides: Partial<VideoRequest> = {}): VideoRequest {
  return {
    kind: 'standard',
    firstFrame,
    prompt: 'The model turns slowly; the voile skirt lifts.',
    camera: ['Push in', 'Pan left'],
    aspect: 'vertical',
    durationSeconds: 6,
    resolution: '768P',
    promptOptimizer: true,
    watermark: false,
    ...overrides,
  };
}

interface CreateBody {
  model: string;
  prompt: string;
  prompt_optimizer: boolean;
  first_frame_image: string;
  last_frame_image?: string;
  duration: number;
  resolution: string;
  aigc_watermark: boolean;
}

describe('MiniMax video', () => {
  it('creates the task with the frame as a data URL and the camera as a bracket command', async () => {
    server.on('POST', '/v1/video_generation', (_req, res) => sendJson(res, 200, { task_id: '106916112212032', base_resp: ok }));
    const started = await generator().startVideo(request(), signal());
    expect(started).toEqual({ taskId: '106916112212032', model: 'MiniMax-Hailuo-02' });

    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer mm-test-key');
    expect(sent.headers['content-type']).toBe('application/json');
    const body = sent.json as CreateBody;
    expect(body).toMatchObject({
      model: 'MiniMax-Hailuo-02',
      prompt: '[Push in,Pan left] The model turns slowly; the voile skirt lifts.',
      prompt_optimizer: true,
      duration: 6,
      resolution: '768P',
      aigc_watermark: false,
    });
    expect(body.last_frame_image).toBeUndefined();
    // Cropped to 9:16 (the video takes the frame's shape), sent as a JPEG data URL.
    const match = /^data:image\/jpeg;base64,(.+)$/.exec(body.first_frame_image);
    expect(match).not.toBeNull();
    const meta = await sharp(Buffer.from(match![1]!, 'base64')).metadata();
    expect(meta.width! / meta.height!).toBeCloseTo(9 / 16, 2);
  });

  it('sends a first-last-frame video with both frames to Hailuo-02 whatever model is configured', async () => {
    server.on('POST', '/v1/video_generation', (_req, res) => sendJson(res, 200, { task_id: 't-fl', base_resp: ok }));
    const started = await generator('MiniMax-Hailuo-2.3').startVideo(
      request({ kind: 'first-last-frame', lastFrame, resolution: '1080P', durationSeconds: 6, camera: [], aspect: 'auto', watermark: true }),
      signal(),
    );
    expect(started.model).toBe('MiniMax-Hailuo-02');
    const body = server.requests[0]!.json as CreateBody;
    expect(body.last_frame_image).toMatch(/^data:image\/png;base64,/);
    // 'auto' keeps the frame as it is.
    expect(body.first_frame_image).toBe(`data:image/png;base64,${firstFrame.data.toString('base64')}`);
    expect(body).toMatchObject({ prompt: 'The model turns slowly; the voile skirt lifts.', aigc_watermark: true, resolution: '1080P' });
  });

  it('refuses combinations the model cannot make, too many camera moves and small frames, without a call', async () => {
    await expectProviderError(generator().startVideo(request({ resolution: '1080P', durationSeconds: 10 }), signal()), 'invalid_request', /1080P: 6 s/);
    await expectProviderError(generator().startVideo(request({ kind: 'first-last-frame', lastFrame, resolution: '512P' }), signal()), 'invalid_request');
    await expectProviderError(generator().startVideo(request({ durationSeconds: 5 }), signal()), 'invalid_request');
    await expectProviderError(generator('MiniMax-Hailuo-2.3').startVideo(request({ resolution: '512P' }), signal()), 'invalid_request');
    await expectProviderError(generator().startVideo(request({ camera: ['Push in', 'Pan left', 'Tilt up', 'Shake'] }), signal()), 'invalid_request', /at most 3/);
    await expectProviderError(generator().startVideo(request({ prompt: 'x'.repeat(2000) }), signal()), 'invalid_request', /2000/);
    const tiny = { data: await pngImage(200, 300), mimeType: 'image/png', role: 'first-frame' as const };
    await expectProviderError(generator().startVideo(request({ firstFrame: tiny, aspect: 'auto' }), signal()), 'invalid_request', /short side/);
    await expectProviderError(generator().startVideo(request({ kind: 'first-last-frame' }), signal()), 'invalid_request', /last frame/);
    expect(server.requests).toHaveLength(0);
    expect(generator().supportedDurations?.standard?.['1080P']).toEqual([6]);
    expect(generator().supportedDurations?.['first-last-frame']?.['512P']).toBeUndefined();
  });

  it('polls Preparing, Queueing, Processing, then Success with the file download URL', async () => {
    const statuses = ['Preparing', 'Queueing', 'Processing'];
    for (const status of statuses) {
      server.on('GET', '/v1/query/video_generation', (_req, res) => sendJson(res, 200, { task_id: 't1', status, file_id: '', base_resp: ok }), 1);
    }
    server.on('GET', '/v1/query/video_generation', (_req, res) =>
      sendJson(res, 200, { task_id: 't1', status: 'Success', file_id: '205258526306433', video_width: 1080, video_height: 1920, base_resp: ok }));
    server.on('GET', '/v1/files/retrieve', (_req, res) =>
      sendJson(res, 200, {
        file: { file_id: 205258526306433, bytes: 5896337, created_at: 1700469398, filename: 'output.mp4', purpose: 'video_generation', download_url: 'https://files.example/output.mp4?sig=1' },
        base_resp: ok,
      }));
    const adapter = generator();
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await adapter.pollVideo('t1', signal()));
    expect(states.slice(0, 3)).toEqual([{ state: 'queued' }, { state: 'queued' }, { state: 'processing' }]);
    expect(states[3]).toEqual({
      state: 'succeeded',
      fileId: '205258526306433',
      video: { url: 'https://files.example/output.mp4?sig=1', mimeType: 'video/mp4', width: 1080, height: 1920 },
    });
    expect(server.requests[0]!.query.get('task_id')).toBe('t1');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer mm-test-key');
    expect(server.requests[4]!.path).toBe('/v1/files/retrieve');
    expect(server.requests[4]!.query.get('file_id')).toBe('205258526306433');
  });

  it('reports a failed task with its reason: sensitive output is safety', async () => {
    server.on('GET', '/v1/query/video_generation', (_req, res) =>
      sendJson(res, 200, { task_id: 't1', status: 'Fail', file_id: '', base_resp: { status_code: 1027, status_msg: 'output video sensitive' } }), 1);
    const failed = await generator().pollVideo('t1', signal());
    expect(failed.state).toBe('failed');
    expect(failed.state === 'failed' && failed.error.kind).toBe('safety');

    server.on('GET', '/v1/query/video_generation', (_req, res) => sendJson(res, 200, { task_id: 't1', status: 'Fail', base_resp: ok }), 1);
    const unexplained = await generator().pollVideo('t1', signal());
    expect(unexplained.state === 'failed' && unexplained.error.kind).toBe('unavailable');
  });

  it('maps base_resp codes on task creation', async () => {
    const cases: [number, ProviderErrorKind][] = [
      [1002, 'rate_limited'],
      [1004, 'auth'],
      [1008, 'quota'],
      [1026, 'safety'],
      [1027, 'safety'],
      [2013, 'invalid_request'],
      [1013, 'unavailable'],
      [9999, 'bad_response'],
    ];
    for (const [code, kind] of cases) {
      server.on('POST', '/v1/video_generation', (_req, res) => sendJson(res, 200, { task_id: '', base_resp: { status_code: code, status_msg: `code ${code}` } }), 1);
      const error = await expectProviderError(generator().startVideo(request(), signal()), kind);
      expect(error.message).toContain(`(${code})`);
    }
  });

  it('maps HTTP trouble and garbage: 502 HTML, 401, no task id, an unknown status, a missing download URL', async () => {
    server.on('POST', '/v1/video_generation', (_req, res) => sendText(res, 502, '<html>Bad Gateway</html>'), 1);
    await expectProviderError(generator().startVideo(request(), signal()), 'unavailable', /502/);
    server.on('POST', '/v1/video_generation', (_req, res) => sendJson(res, 401, { base_resp: { status_code: 1004, status_msg: 'login fail' } }), 1);
    await expectProviderError(generator().startVideo(request(), signal()), 'auth');
    server.on('POST', '/v1/video_generation', (_req, res) => sendJson(res, 200, { base_resp: ok }), 1);
    await expectProviderError(generator().startVideo(request(), signal()), 'bad_response', /task id/);
    server.on('POST', '/v1/video_generation', (_req, res) => sendText(res, 200, 'OK', 'text/plain'), 1);
    await expectProviderError(generator().startVideo(request(), signal()), 'bad_response', /not JSON/);

    server.on('GET', '/v1/query/video_generation', (_req, res) => sendJson(res, 200, { status: 'Dancing', base_resp: ok }), 1);
    await expectProviderError(generator().pollVideo('t1', signal()), 'bad_response', /Dancing/);
    server.on('GET', '/v1/query/video_generation', (_req, res) => sendJson(res, 200, { status: 'Success', file_id: 'f1', base_resp: ok }), 1);
    server.on('GET', '/v1/files/retrieve', (_req, res) => sendJson(res, 200, { file: { file_id: 'f1' }, base_resp: ok }), 1);
    await expectProviderError(generator().pollVideo('t1', signal()), 'bad_response', /download URL/);
  });

  it('reports an unreachable server as unavailable and a cancelled call as cancelled', async () => {
    await expectProviderError(createMinimaxVideoGenerator({ apiKey: 'k', baseUrl: await unreachableUrl(), model: 'MiniMax-Hailuo-02' }).pollVideo('t', signal()), 'unavailable');
    const controller = new AbortController();
    server.on('GET', '/v1/query/video_generation', () => controller.abort());
    await expectProviderError(generator().pollVideo('t1', controller.signal), 'cancelled');
  });
});

describe('MiniMax frame size limit', () => {
  it('sends a 2048 px frame of 16 MB as a data URL under MiniMax\'s 20 MB (the double refuses larger ones with 2013)', async () => {
    const big = await sharp({ create: { width: 2048, height: 2048, channels: 4, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(15_000_000);
    server.on('POST', '/v1/video_generation', (req, res) => {
      const frame = String((req.json as { first_frame_image?: string }).first_frame_image ?? '');
      if (frame.length > 20 * 1024 * 1024) {
        sendJson(res, 200, { task_id: '', base_resp: { status_code: 2013, status_msg: 'invalid params, first_frame_image size exceeds 20MB' } });
        return;
      }
      sendJson(res, 200, { task_id: 't-big', base_resp: ok });
    });
    const started = await generator().startVideo(request({ firstFrame: { data: big, mimeType: 'image/png', role: 'first-frame' }, aspect: 'auto' }), signal());
    expect(started.taskId).toBe('t-big');
    expect(server.requests).toHaveLength(1);
  });
});
