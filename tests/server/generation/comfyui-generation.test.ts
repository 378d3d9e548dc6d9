// The whole generation service on a ComfyUI server (the protocol double of tests/support): the six
// candidates and a video made there, with the queue position and the sampler's steps in the
// progress events a person reads; a cancel that interrupts the prompt on ComfyUI; ComfyUI
// restarted mid-video (the job queues it again); our server restarted mid-video (the new process
// follows the same prompt); and the engines call the settings page reads, naming what ComfyUI lacks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComfyDouble } from '../../support/comfyui-double.js';
import { databaseKinds } from '../helpers/databases.js';
import { comfyProviders } from './helpers/comfy-providers.js';
import { solidPng } from './helpers/fake-providers.js';
import { createGenerationApp, FAST_RUNNER, sseEvents, until, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

interface VideoView {
  id: number;
  status: string;
  progress: number;
  model: string | null;
  url: string | null;
  error: { code: string; message: string } | null;
}

const RUNNER = { ...FAST_RUNNER, maxRunMs: 20_000, budgetMs: 20_000 };

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`generation on a ComfyUI server, on ${db.kind}`, () => {
    let double: ComfyDouble;
    let t: GenerationTestApp;
    let general: { id: number; token: string };
    let images: SeededImage[];
    const closers: (() => void)[] = [];

    const providers = () => comfyProviders(double.url, `loom-gen-test-${db.kind}`, closers);
    const video = (id: number) => t.call<VideoView>('GET', `/api/user/video-generations/${id}`, { token: general.token });
    const create = async (prompt: string) => {
      const created = await t.call<VideoView[]>('POST', '/api/user/video-generations', { token: general.token, body: { image_id: images[0]!.id, prompt, duration: 6 } });
      expect(created.status).toBe(201);
      return created.body.data[0]!.id;
    };
    const finished = (id: number) => until(() => video(id), (r) => ['completed', 'failed'].includes(r.body.data.status), 20_000);
    const promptsQueued = () => double.seen().filter((s) => s === 'POST /prompt').length;

    beforeAll(async () => {
      double = await ComfyDouble.start({ withoutModels: ['clip_vision_h.safetensors'] });
      t = await createGenerationApp(db.kind, providers(), RUNNER);
      general = await t.user('GENERAL');
    });
    afterAll(async () => {
      await t?.close();
      for (const close of closers) close();
      await double?.stop();
    });

    it('makes the six candidates on ComfyUI, telling the queue position and steps as it goes', async () => {
      const queuedBefore = promptsQueued();
      const { events } = await t.stream('/image-api/analyze-images-json-stream', {
        token: general.token,
        form: [
          { name: 'prompt', value: 'A summer dress' },
          { name: 'request_id', value: `comfy-candidates-${db.kind}` },
          { name: 'fabric_name', value: 'Twill' },
          { name: 'model_images', value: await solidPng(40, 60, '#dddddd'), filename: 'm.png' },
          { name: 'pattern_images', value: await solidPng(32, 32, '#2980b9'), filename: 'p.png' },
        ],
      });
      const last = events.at(-1) as { type: string; data: { images: (SeededImage & { model: string })[] } };
      expect(last.type).toBe('complete');
      const made = last.data.images;
      images = made;
      expect(made.filter((i) => i.status === 'completed')).toHaveLength(6);
      expect(made[0]!.model).toBe('comfyui:image-edit');
      expect(promptsQueued() - queuedBefore).toBe(6);
      const messages = events.filter((e) => e.type === 'progress').map((e) => String(e.message));
      expect(messages.some((m) => /^Sampling: step \d+ of 20$/.test(m))).toBe(true);
      expect(messages.some((m) => /^Waiting for the GPU: \d+ ahead in the queue$/.test(m))).toBe(true);
    });

    it('makes a video on ComfyUI; its events say the steps, and the MP4 is stored', async () => {
      if (!images) images = await seedRequest(t, general.token, `comfy-seed-${db.kind}`);
      const id = await create('The model turns slowly.');
      const stream = t.app.inject({ method: 'GET', url: `/api/user/video-generations/events?ids=${id}`, headers: { authorization: `Bearer ${general.token}`, 'accept-language': 'en-US' } });
      const done = await finished(id);
      expect(done.body.data).toMatchObject({ status: 'completed', model: 'comfyui:video', progress: 100 });
      const events = sseEvents((await stream).body);
      const told = events.filter((e) => e.type === 'progress' && typeof e.message === 'string').map((e) => e.message as string);
      expect(told.some((m) => /^Sampling: step \d+ of 20$/.test(m))).toBe(true);
      const percents = events.filter((e) => e.type === 'progress' && typeof e.progress === 'number').map((e) => e.progress as number);
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
      const file = await t.app.inject({ method: 'GET', url: done.body.data.url!, headers: { authorization: `Bearer ${general.token}` } });
      expect(file.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
    });

    it('a cancel interrupts the prompt on ComfyUI', async () => {
      const hold = double.pauseAt(4);
      const id = await create('Cancelled on the GPU.');
      await hold.reached;
      const promptId = [...double.prompts.keys()].at(-1);
      const cancelled = await t.call<VideoView>('POST', `/api/user/video-generations/${id}/cancel`, { token: general.token });
      expect(cancelled.body.data).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
      await until(async () => double.requests.filter((r) => r.path === '/interrupt'), (list) => list.length > 0);
      expect(double.requests.find((r) => r.path === '/interrupt')?.body).toEqual({ prompt_id: promptId });
      hold.release();
    });

    it('ComfyUI restarted mid-video: the job queues the prompt again and the video completes', async () => {
      const hold = double.pauseAt(3);
      const before = promptsQueued();
      const id = await create('Across a restart of ComfyUI.');
      await hold.reached;
      await double.restart();
      const done = await finished(id);
      expect(done.body.data.status).toBe('completed');
      expect(promptsQueued() - before).toBe(2);
    });

    it('our server restarted mid-video: the new process follows the same prompt to its video', async () => {
      const hold = double.pauseAt(3);
      const before = promptsQueued();
      const id = await create('Across a restart of Loom Studio.');
      await hold.reached;
      await t.restart(providers());
      hold.release();
      const done = await finished(id);
      expect(done.body.data.status).toBe('completed');
      expect(promptsQueued() - before).toBe(1);
    });

    it('the engines call says which engine serves what, and names the model files ComfyUI lacks', async () => {
      const r = await t.call<{ capabilities: Record<string, { provider: string; local_preview: boolean }>; checks: { provider: string; reachable: boolean; problems: string[] }[] }>(
        'GET',
        '/api/generation/engines',
        { token: general.token },
      );
      expect(r.status).toBe(200);
      expect(r.body.data.capabilities.images).toEqual({ provider: 'comfyui', local_preview: false });
      expect(r.body.data.capabilities.analyse).toEqual({ provider: 'local', local_preview: true });
      expect(r.body.data.checks).toEqual([{ provider: 'comfyui', reachable: true, problems: ['video-first-last-frame.json: model file clip_vision_h.safetensors is missing (CLIPVisionLoader.clip_name, node 4)'], checked_at: expect.any(String) }]);
    });
  });
}
