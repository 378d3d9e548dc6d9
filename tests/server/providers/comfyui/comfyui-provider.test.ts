// The ComfyUI adapter against a local server speaking ComfyUI's HTTP and WebSocket protocol
// (tests/support/comfyui-double.ts): upload, queue, progress, history and view for images and
// videos; node_errors when queueing, an execution_error mid-run, interrupts and queue deletion;
// the WebSocket dropped mid-run (the history answers instead); ComfyUI restarted mid-run; our own
// restart picking a running prompt up again; the start-up check against /object_info.
import { connect } from 'node:net';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ImageGenerationInput, InputImage, TaskProgress, VideoGenerator, VideoRequest, VideoTaskState } from '../../../../server/providers/capabilities.js';
import { createComfyProvider, type ComfyOptions, type ComfyProvider } from '../../../../server/providers/comfyui/comfyui-provider.js';
import { SHIPPED_WORKFLOWS } from '../../../../server/providers/comfyui/comfyui-workflow.js';
import { ComfyDouble, type DoubleOptions } from '../../../support/comfyui-double.js';
import { expectProviderError } from '../provider-assertions.js';
import { pngImage } from '../provider-test-server.js';

let model: InputImage;
let pattern: InputImage;
let lastFrame: InputImage;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  model = { data: await pngImage(600, 900), mimeType: 'image/png', role: 'model' };
  pattern = { data: await pngImage(400, 400, '#16a085'), mimeType: 'image/png', role: 'pattern' };
  lastFrame = { data: await pngImage(600, 900, '#2980b9'), mimeType: 'image/png', role: 'last-frame' };
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(doubleOptions: DoubleOptions = {}, providerOptions: Partial<ComfyOptions> = {}): Promise<{ double: ComfyDouble; comfy: ComfyProvider }> {
  const double = await ComfyDouble.start(doubleOptions);
  cleanups.push(() => double.stop());
  const comfy = provider(double, providerOptions);
  return { double, comfy };
}

function provider(double: ComfyDouble, options: Partial<ComfyOptions> = {}): ComfyProvider {
  const comfy = createComfyProvider({
    baseUrl: double.url,
    workflows: { images: SHIPPED_WORKFLOWS.images, enhance: SHIPPED_WORKFLOWS.images, video: SHIPPED_WORKFLOWS.video, videoFirstLast: SHIPPED_WORKFLOWS['video-first-last-frame'] },
    clientId: 'loom-test-client',
    timing: { fallbackPollMs: 20, checkEveryMs: 60_000 },
    pollIntervalMs: 10,
    reconnectMs: 20,
    ...options,
  });
  cleanups.push(() => comfy.close());
  return comfy;
}

function images(overrides: Partial<ImageGenerationInput> = {}): ImageGenerationInput {
  return { prompt: 'A model in a silk chiffon dress', sources: [model, pattern], count: 2, aspect: 'vertical', language: 'en-US', signal: new AbortController().signal, ...overrides };
}

function video(overrides: Partial<VideoRequest> = {}): VideoRequest {
  return {
    kind: 'standard',
    firstFrame: { ...model, role: 'first-frame' },
    prompt: 'The model turns slowly.',
    camera: ['Push in'],
    aspect: 'vertical',
    durationSeconds: 6,
    resolution: '768P',
    promptOptimizer: true,
    watermark: false,
    ...overrides,
  };
}

/** Polls until the task ends, collecting what the polls said on the way. */
async function pollToEnd(generator: VideoGenerator, taskId: string): Promise<{ end: VideoTaskState; seen: VideoTaskState[] }> {
  const seen: VideoTaskState[] = [];
  for (;;) {
    const state = await generator.pollVideo(taskId, new AbortController().signal);
    if (state.state === 'succeeded' || state.state === 'failed') return { end: state, seen };
    seen.push(state);
    await new Promise((resolve) => setTimeout(resolve, generator.pollIntervalMs));
  }
}

const promptOf = (double: ComfyDouble, taskId: string) => double.prompts.get(taskId.split(':')[1]!)!.nodes;

describe('ComfyUI images', () => {
  it('uploads the references, queues one prompt per candidate with its seed and size, tells the queue position and steps, and reads the PNGs from /view', async () => {
    const { double, comfy } = await setup();
    // The first candidate holds at step 3 until the second one was told its place in the queue.
    const hold = double.pauseAt(3);
    const progress: [number, TaskProgress][] = [];
    let toldQueue!: () => void;
    const queued = new Promise<void>((resolve) => (toldQueue = resolve));
    void hold.reached.then(() => queued).then(hold.release);
    const ready: number[] = [];
    const result = await comfy.imageGenerator.generateImages(
      images({
        onProgress: (index, p) => {
          progress.push([index, p]);
          if (index === 1 && p.queueAhead !== undefined) toldQueue();
        },
      }),
      (_image, index) => ready.push(index),
    );

    expect(result.failures).toEqual([]);
    expect(result.model).toBe('comfyui:image-edit');
    expect(result.images).toHaveLength(2);
    for (const image of result.images) {
      expect(image.mimeType).toBe('image/png');
      expect(image.height).toBeGreaterThan(image.width);
      expect((await sharp(image.data).metadata()).format).toBe('png');
    }
    expect(ready.sort()).toEqual([0, 1]);
    const seen = double.seen();
    expect(seen.filter((s) => s === 'POST /upload/image')).toHaveLength(2);
    expect(seen.filter((s) => s === 'POST /prompt')).toHaveLength(2);
    expect(seen.filter((s) => s === 'GET /view')).toHaveLength(2);
    // Both references went to the titled LoadImage nodes; prompt, seed and size were filled.
    const queuedPrompts = [...double.prompts.values()];
    const [first, second] = queuedPrompts.map((p) => p.nodes);
    expect(first!['4']!.inputs.image).toMatch(/^loom\/[0-9a-f]{32}\.png$/);
    expect(first!['5']!.inputs.image).not.toBe(first!['4']!.inputs.image);
    expect(String(first!['9']!.inputs.text)).toContain('silk chiffon');
    expect(first!['13']!.inputs).toMatchObject({ width: 768, height: 1376 });
    expect(first!['14']!.inputs.seed).not.toBe(second!['14']!.inputs.seed);
    expect(queuedPrompts.every((p) => p.clientId === 'loom-test-client')).toBe(true);
    // What a person reads: the second candidate's place in the queue, then the sampler's steps.
    expect(progress.some(([index, p]) => index === 1 && p.queueAhead === 1)).toBe(true);
    const steps = progress.filter(([, p]) => p.stage?.unit === 'steps').map(([, p]) => p.stage!);
    expect(steps.length).toBeGreaterThan(5);
    expect(steps.at(-1)).toMatchObject({ value: 20, max: 20 });
  });

  it('a workflow the server refuses (node_errors) fails every candidate as invalid_request, naming the node and value', async () => {
    const { double, comfy } = await setup({ withoutModels: ['ae.safetensors'] });
    await expectProviderError(comfy.imageGenerator.generateImages(images(), () => undefined), 'invalid_request', /node 3 \(VAELoader\).*ae\.safetensors/);
    // The two candidates that start together may both reach ComfyUI; none starts after the refusal.
    expect(double.seen().filter((s) => s === 'POST /prompt').length).toBeLessThanOrEqual(2);
  });

  it('an execution_error mid-run fails the run with the node and exception; out of memory is left for later', async () => {
    const { double, comfy } = await setup();
    double.failAt(4, 'RuntimeError', 'shape mismatch in attention');
    await expectProviderError(comfy.imageGenerator.generateImages(images({ count: 1 }), () => undefined), 'invalid_request', /node 14 \(KSampler\): RuntimeError: shape mismatch/);

    double.failAt(2, 'torch.OutOfMemoryError', 'CUDA out of memory. Tried to allocate 2.00 GiB');
    const result = await comfy.imageGenerator.generateImages(images({ count: 1 }), () => undefined);
    expect(result.failures?.map((f) => f.error.kind)).toEqual(['unavailable']);
  });

  it('a cancel interrupts the running prompt and deletes the waiting one from the queue', async () => {
    const { double, comfy } = await setup();
    const hold = double.pauseAt(5);
    const controller = new AbortController();
    const run = comfy.imageGenerator.generateImages(images({ signal: controller.signal }), () => undefined);
    await hold.reached;
    // Both candidates are queued before the cancel (the second waits behind the first).
    await expect.poll(() => double.seen().filter((s) => s === 'POST /prompt').length).toBe(2);
    controller.abort();
    await expectProviderError(run, 'cancelled');
    hold.release();
    await expect.poll(() => double.requests.filter((r) => r.path === '/interrupt' || (r.path === '/queue' && r.method === 'POST')).length).toBe(2);
    const [running, waiting] = [...double.prompts.keys()];
    expect(double.requests.find((r) => r.path === '/interrupt')?.body).toEqual({ prompt_id: running });
    expect(double.requests.find((r) => r.path === '/queue' && r.method === 'POST')?.body).toEqual({ delete: [waiting] });
  });

  it('the WebSocket dropped mid-run (and refused after): the run is followed through /history to its image', async () => {
    const { double, comfy } = await setup();
    const hold = double.pauseAt(5);
    const run = comfy.imageGenerator.generateImages(images({ count: 1 }), () => undefined);
    await hold.reached;
    expect(double.openSockets).toBe(1);
    const before = double.seen().filter((s) => s.startsWith('GET /history')).length;
    double.dropSockets(true);
    hold.release();
    const result = await run;
    expect(result.images).toHaveLength(1);
    expect(double.openSockets).toBe(0);
    expect(double.seen().filter((s) => s.startsWith('GET /history')).length).toBeGreaterThan(before);
  });

  it('a client that resets its connection while the WebSocket is refused leaves the server standing', async () => {
    // What the provider's reconnect does when it is closed as the refusal comes: the socket Node
    // handed to 'upgrade' has no error listener of its own, so the reset was an uncaught error.
    const { double } = await setup();
    double.dropSockets(true);
    const port = Number(new URL(double.url).port);
    for (let i = 0; i < 5; i++) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write('GET /ws?clientId=reset HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'),
        );
        socket.once('data', (chunk: Buffer) => {
          socket.resetAndDestroy();
          resolve(chunk.toString());
        });
        socket.once('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 503/);
    }
    double.acceptSockets();
    expect((await provider(double).imageGenerator.generateImages(images({ count: 1 }), () => undefined)).images).toHaveLength(1);
  });

  it('ComfyUI restarted mid-run: the lost candidate is left for a later run (unavailable), not refused', async () => {
    const { double, comfy } = await setup();
    const hold = double.pauseAt(5);
    const run = comfy.imageGenerator.generateImages(images({ count: 1 }), () => undefined);
    await hold.reached;
    await double.restart();
    const result = await run;
    expect(result.images.filter(Boolean)).toHaveLength(0);
    expect(result.failures?.[0]?.error).toMatchObject({ kind: 'unavailable' });
    expect(result.failures?.[0]?.error.message).toMatch(/no longer knows prompt/);
    // The next run works against the restarted server.
    expect((await comfy.imageGenerator.generateImages(images({ count: 1 }), () => undefined)).images).toHaveLength(1);
  });

  it('a reverse proxy token goes with every request and the socket; a wrong one is an auth failure', async () => {
    const { double, comfy } = await setup({ token: 'proxy-secret' }, { token: 'proxy-secret' });
    expect((await comfy.imageGenerator.generateImages(images({ count: 1 }), () => undefined)).images).toHaveLength(1);
    expect(double.openSockets).toBe(0);
    const wrong = provider(double, { token: 'nope' });
    await expectProviderError(wrong.imageGenerator.generateImages(images({ count: 1 }), () => undefined), 'auth', /HTTP 401/);
  });

  it('the workshop edits each image in its own shape; text goes to the text engine', async () => {
    const { double } = await setup();
    const comfy = provider(double, {
      textEnhancer: { enhance: async (input) => ({ text: `${input.text} (tidied)`, images: [], confidence: 0.4, model: 'local' }) },
    });
    const result = await comfy.enhancer.enhance({
      type: 'mixed',
      text: 'silk',
      images: [model],
      creativity: 0.5,
      precision: 0.5,
      style: 'natural',
      language: 'en-US',
      signal: new AbortController().signal,
    });
    expect(result.text).toBe('silk (tidied)');
    expect(result.images).toHaveLength(1);
    expect(result.images[0]!.height).toBeGreaterThan(result.images[0]!.width);
    expect(result.model).toBe('local + comfyui:image-edit');
  });
});

describe('ComfyUI video', () => {
  it('queues the workflow with frames, size and length filled, tells steps while it runs, and answers the MP4', async () => {
    const { double, comfy } = await setup();
    const { taskId, model: name } = await comfy.videoGenerator.startVideo(video(), new AbortController().signal);
    expect(taskId).toMatch(/^i2v:/);
    expect(name).toBe('comfyui:video');
    const nodes = promptOf(double, taskId);
    // 768P vertical at the workflow's 24 fps: 6 s = 145 frames (4n + 1).
    expect(nodes['8']!.inputs).toMatchObject({ width: 704, height: 1248, length: 145 });
    expect(nodes['5']!.inputs.text).toBe('The model turns slowly. Camera: push in.');
    const { end, seen } = await pollToEnd(comfy.videoGenerator, taskId);
    expect(end.state).toBe('succeeded');
    const data = (end as Extract<VideoTaskState, { state: 'succeeded' }>).video.data!;
    expect(data.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(seen.some((s) => s.state === 'processing' && s.progress?.stage?.unit === 'steps')).toBe(true);
    const fractions = seen.flatMap((s) => (s.state === 'processing' && s.progress?.fraction !== undefined ? [s.progress.fraction] : []));
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it('first-last-frame fills both frames in its own workflow', async () => {
    const { double, comfy } = await setup();
    const { taskId } = await comfy.videoGenerator.startVideo(video({ kind: 'first-last-frame', lastFrame, resolution: '512P', aspect: 'square' }), new AbortController().signal);
    expect(taskId).toMatch(/^flf:/);
    const nodes = promptOf(double, taskId);
    expect(nodes['8']!.inputs.image).not.toBe(nodes['9']!.inputs.image);
    expect(nodes['12']!.inputs).toMatchObject({ width: 480, height: 480, length: 97 });
    expect((await pollToEnd(comfy.videoGenerator, taskId)).end.state).toBe('succeeded');
  });

  it('a waiting prompt tells its place in the queue; a cancel deletes it from the queue, a running one is interrupted', async () => {
    const { double, comfy } = await setup();
    const hold = double.pauseAt(2);
    const first = await comfy.videoGenerator.startVideo(video(), new AbortController().signal);
    await hold.reached;
    const second = await comfy.videoGenerator.startVideo(video(), new AbortController().signal);
    expect(await comfy.videoGenerator.pollVideo(second.taskId, new AbortController().signal)).toEqual({ state: 'queued', progress: { queueAhead: 1 } });
    await comfy.videoGenerator.cancelVideo!(second.taskId, new AbortController().signal);
    expect(double.requests.at(-1)).toMatchObject({ method: 'POST', path: '/queue', body: { delete: [second.taskId.slice(4)] } });
    await comfy.videoGenerator.cancelVideo!(first.taskId, new AbortController().signal);
    expect(double.requests.at(-1)).toMatchObject({ method: 'POST', path: '/interrupt', body: { prompt_id: first.taskId.slice(4) } });
    hold.release();
    const { end } = await pollToEnd(comfy.videoGenerator, first.taskId);
    expect(end).toMatchObject({ state: 'failed', error: { kind: 'cancelled' } });
  });

  it('an execution_error mid-run is the task failing, with the node and exception', async () => {
    const { double, comfy } = await setup();
    double.failAt(7, 'ValueError', 'the first frame has the wrong number of channels');
    const { taskId } = await comfy.videoGenerator.startVideo(video(), new AbortController().signal);
    const { end } = await pollToEnd(comfy.videoGenerator, taskId);
    expect(end).toMatchObject({ state: 'failed', error: { kind: 'invalid_request' } });
    expect((end as { error: Error }).error.message).toMatch(/node 9 \(KSampler\): ValueError: the first frame/);
  });

  it('ComfyUI restarted mid-run: the task fails as unavailable, so the job queues it again', async () => {
    const { double, comfy } = await setup();
    const hold = double.pauseAt(3);
    const { taskId } = await comfy.videoGenerator.startVideo(video(), new AbortController().signal);
    await hold.reached;
    await double.restart();
    const { end } = await pollToEnd(comfy.videoGenerator, taskId);
    expect(end).toMatchObject({ state: 'failed', error: { kind: 'unavailable' } });
  });

  it('our server restarted mid-run: a new adapter with the same client id follows the same prompt to its video', async () => {
    const { double, comfy } = await setup();
    const hold = double.pauseAt(3);
    const { taskId } = await comfy.videoGenerator.startVideo(video(), new AbortController().signal);
    await hold.reached;
    comfy.close();
    const again = provider(double);
    const progress = await again.videoGenerator.pollVideo(taskId, new AbortController().signal);
    expect(progress.state).toBe('processing');
    hold.release();
    const { end } = await pollToEnd(again.videoGenerator, taskId);
    expect(end.state).toBe('succeeded');
    expect(double.seen().filter((s) => s === 'POST /prompt')).toHaveLength(1);
  });
});

describe('ComfyUI setup check', () => {
  it('names the node types and model files the server lacks', async () => {
    const { comfy } = await setup({ withoutNodes: ['ImageStitch'], withoutModels: ['wan2.2_vae.safetensors'] });
    const check = await comfy.checkSetup();
    expect(check.reachable).toBe(true);
    expect(check.problems).toEqual([
      'image-edit.json: node types not installed: ImageStitch',
      'video.json: model file wan2.2_vae.safetensors is missing (VAELoader.vae_name, node 3)',
    ]);
  });

  it('the shipped workflows have everything on a complete server; an unreachable one says so', async () => {
    const { double, comfy } = await setup();
    expect((await comfy.checkSetup()).problems).toEqual([]);
    await double.stop();
    const check = await comfy.checkSetup();
    expect(check.reachable).toBe(false);
    expect(check.problems[0]).toMatch(/could not be asked for its nodes: cannot reach ComfyUI/);
  });
});
