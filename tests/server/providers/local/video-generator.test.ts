import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoGenerator, VideoRequest, VideoTaskState } from '../../../../server/providers/capabilities.js';
import { ProviderError } from '../../../../server/providers/capabilities.js';
import { resolveFfmpegPath } from '../../../../server/providers/local/ffmpeg-path.js';
import { LOCAL_PREVIEW_MODEL } from '../../../../server/providers/local/model-name.js';
import { readMp4Facts, videoTrack } from '../../../../server/providers/local/mp4-facts.js';
import { createLocalVideoGenerator } from '../../../../server/providers/local/video-generator.js';
import { BLUE, RED, WHITE, png, type Rgb } from './test-images.js';

const run = promisify(execFile);
const ffmpeg = resolveFfmpegPath();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'loom-local-video-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Decodes frame `index` of an MP4 to raw RGB with ffmpeg. */
async function frame(video: Buffer, index: number): Promise<{ width: number; height: number; rgb: Buffer }> {
  const file = path.join(dir, `v-${Math.random().toString(36).slice(2)}.mp4`);
  await writeFile(file, video);
  const facts = videoTrack(readMp4Facts(video))!;
  const { stdout } = await run(
    ffmpeg!,
    ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${index})`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  return { width: facts.width, height: facts.height, rgb: stdout };
}

/** Mean colour of a region (fractions of the frame). */
function mean(f: { width: number; height: number; rgb: Buffer }, x0 = 0, y0 = 0, x1 = 1, y1 = 1): Rgb {
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.floor(y0 * f.height); y < Math.floor(y1 * f.height); y++) {
    for (let x = Math.floor(x0 * f.width); x < Math.floor(x1 * f.width); x++) {
      const o = (y * f.width + x) * 3;
      for (let k = 0; k < 3; k++) sum[k]! += f.rgb[o + k]!;
      n++;
    }
  }
  return sum.map((s) => s / n) as Rgb;
}

async function settle(generator: VideoGenerator, taskId: string, seen?: string[]): Promise<VideoTaskState> {
  for (let i = 0; i < 600; i++) {
    const state = await generator.pollVideo(taskId, new AbortController().signal);
    seen?.push(state.state);
    if (state.state === 'succeeded' || state.state === 'failed') return state;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('video did not finish');
}

function request(over: Partial<VideoRequest> & Pick<VideoRequest, 'firstFrame'>): VideoRequest {
  return {
    kind: 'standard',
    prompt: '',
    camera: [],
    aspect: 'square',
    durationSeconds: 2,
    resolution: '512P',
    promptOptimizer: false,
    watermark: false,
    ...over,
  };
}

const image = async (w: number, h: number, f: (x: number, y: number) => Rgb) => ({ data: await png(w, h, f), mimeType: 'image/png', role: 'first-frame' as const });
const blueSquare = (size: number) => (x: number, y: number): Rgb =>
  Math.abs(x - size / 2) < size / 8 && Math.abs(y - size / 2) < size / 8 ? BLUE : WHITE;

describe.runIf(ffmpeg)('local video generator', () => {
  const tiny = () => createLocalVideoGenerator({ fps: 8, maxShortSide: 96, pollIntervalMs: 20 });

  it('renders an H.264 MP4 with the camera move from the prompt and the AIGC label', async () => {
    const generator = tiny();
    expect(generator.pollIntervalMs).toBe(20);
    const { taskId, model } = await generator.startVideo(
      request({ firstFrame: await image(256, 256, blueSquare(256)), prompt: '[Push in] the fabric up close', watermark: true }),
      new AbortController().signal,
    );
    expect(model).toBe(LOCAL_PREVIEW_MODEL);
    expect(taskId).toMatch(/^local-video-/);
    const state = await settle(generator, taskId);
    if (state.state !== 'succeeded') throw new Error(`render failed: ${JSON.stringify(state)}`);
    expect(state.video).toMatchObject({ mimeType: 'video/mp4', width: 96, height: 96 });
    expect(state.video.durationSeconds).toBeCloseTo(2, 1);
    const facts = readMp4Facts(state.video.data!);
    expect(facts.fastStart).toBe(true);
    expect(facts.durationSeconds).toBeCloseTo(2, 1);
    expect(videoTrack(facts)).toMatchObject({ codec: 'avc1', width: 96, height: 96, sampleCount: 16, frameRate: 8 });

    // Push in: the blue square in the middle fills more of the last frame than of the first.
    const first = await frame(state.video.data!, 0);
    const last = await frame(state.video.data!, 15);
    const blueness = (f: typeof first) => {
      const [r, , b] = mean(f, 0.25, 0.25, 0.75, 0.75);
      return b - r;
    };
    expect(blueness(last)).toBeGreaterThan(blueness(first) + 20);
    // The label's dark plate sits in the bottom-right corner of a white frame, and stays there.
    for (const f of [first, last]) {
      expect(mean(f, 0.6, 0.85, 0.95, 0.95)[0]).toBeLessThan(200);
      expect(mean(f, 0.05, 0.85, 0.3, 0.95)[0]).toBeGreaterThan(240);
    }
  });

  it('cross-fades from the first to the last frame, in the first frame\'s own aspect', async () => {
    const generator = tiny();
    const red = await image(96, 128, () => RED);
    const blue = { ...(await image(96, 128, () => BLUE)), role: 'last-frame' as const };
    const { taskId } = await generator.startVideo(
      request({ kind: 'first-last-frame', firstFrame: red, lastFrame: blue, aspect: 'auto', camera: ['Static shot'] }),
      new AbortController().signal,
    );
    const state = await settle(generator, taskId);
    if (state.state !== 'succeeded') throw new Error(`render failed: ${JSON.stringify(state)}`);
    expect([state.video.width, state.video.height]).toEqual([96, 128]);
    const [r0, , b0] = mean(await frame(state.video.data!, 0));
    const [rm, , bm] = mean(await frame(state.video.data!, 8));
    const [r1, , b1] = mean(await frame(state.video.data!, 15));
    expect(r0).toBeGreaterThan(200);
    expect(b0).toBeLessThan(60);
    expect(b1).toBeGreaterThan(150);
    expect(r1).toBeLessThan(80);
    // Halfway, a mix of both.
    expect(rm).toBeGreaterThan(r1 + 30);
    expect(bm).toBeGreaterThan(b0 + 30);
  });

  it('pans right across the image in a horizontal frame', async () => {
    const generator = tiny();
    const halves = await image(320, 180, (x) => (x < 160 ? [0, 0, 0] : WHITE));
    const { taskId } = await generator.startVideo(
      request({ firstFrame: halves, aspect: 'horizontal', camera: ['Pan right'] }),
      new AbortController().signal,
    );
    const state = await settle(generator, taskId);
    if (state.state !== 'succeeded') throw new Error(`render failed: ${JSON.stringify(state)}`);
    expect([state.video.width, state.video.height]).toEqual([170, 96]);
    const startLight = mean(await frame(state.video.data!, 0))[0];
    const endLight = mean(await frame(state.video.data!, 15))[0];
    expect(endLight).toBeGreaterThan(startLight + 20);
  });

  it('renders one video at a time: a second waits in the queue', async () => {
    const generator = tiny();
    const signal = new AbortController().signal;
    const first = await generator.startVideo(request({ firstFrame: await image(64, 64, () => RED) }), signal);
    const second = await generator.startVideo(request({ firstFrame: await image(64, 64, () => BLUE) }), signal);
    const seen: string[] = [];
    expect((await generator.pollVideo(second.taskId, signal)).state).toBe('queued');
    const [a, b] = await Promise.all([settle(generator, first.taskId), settle(generator, second.taskId, seen)]);
    expect(a.state).toBe('succeeded');
    expect(b.state).toBe('succeeded');
    expect(seen[0]).toBe('queued');
  });

  it('cancelling the start signal stops ffmpeg mid-render', async () => {
    // A long render at full size, so it is still running when it is cancelled.
    const generator = createLocalVideoGenerator({ pollIntervalMs: 20 });
    const controller = new AbortController();
    const { taskId } = await generator.startVideo(
      request({ firstFrame: await image(256, 256, blueSquare(256)), durationSeconds: 20, resolution: '1080P', camera: ['Shake'] }),
      controller.signal,
    );
    for (let i = 0; i < 200 && (await generator.pollVideo(taskId, controller.signal)).state !== 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    controller.abort();
    const state = await settle(generator, taskId);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(state.state).toBe('failed');
    if (state.state === 'failed') expect(state.error.kind).toBe('cancelled');
    // No ffmpeg of ours is left running.
    if (process.platform === 'linux') {
      const { stdout } = await run('ps', ['-o', 'comm=', '--ppid', String(process.pid)]).catch(() => ({ stdout: '' }));
      expect(stdout).not.toMatch(/ffmpeg/);
    }
  });

  it('an unknown task (after a restart) fails as unavailable, so the job runs again', async () => {
    const state = await tiny().pollVideo('local-video-from-before-the-restart', new AbortController().signal);
    expect(state.state).toBe('failed');
    if (state.state === 'failed') {
      expect(state.error).toBeInstanceOf(ProviderError);
      expect(state.error.kind).toBe('unavailable');
      expect(state.error.retryable).toBe(true);
    }
  });

  it('refuses a first-last-frame video without a last frame, and reports a broken ffmpeg', async () => {
    const signal = new AbortController().signal;
    await expect(
      tiny().startVideo(request({ kind: 'first-last-frame', firstFrame: await image(32, 32, () => RED) }), signal),
    ).rejects.toSatisfy((e: unknown) => e instanceof ProviderError && e.kind === 'invalid_request');
    const broken = createLocalVideoGenerator({ ffmpegPath: path.join(dir, 'no-such-ffmpeg'), maxShortSide: 32, fps: 4 });
    const { taskId } = await broken.startVideo(request({ firstFrame: await image(32, 32, () => RED) }), signal);
    const state = await settle(broken, taskId);
    expect(state.state).toBe('failed');
    if (state.state === 'failed') expect(state.error.kind).toBe('unavailable');
  });
});
