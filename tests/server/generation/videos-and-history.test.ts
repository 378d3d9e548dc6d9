import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers/databases.js';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { createFakeProvider, type FakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, sseEvents, until, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';
import { expectOnContract } from '../helpers/stream-contract.js';

interface Page<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}
interface VideoView {
  id: number;
  status: string;
  progress: number;
  url: string | null;
  thumbnail_url: string | null;
  error: { code: string; message: string } | null;
  [key: string]: unknown;
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`videos and history on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;
    let general: { id: number; token: string };
    let images: SeededImage[];
    const video = (id: number) => t.call<VideoView>('GET', `/api/user/video-generations/${id}`, { token: general.token });
    const finished = (r: { body: { data: VideoView } }) => ['completed', 'failed'].includes(r.body.data.status);

    beforeAll(async () => {
      fake = createFakeProvider();
      t = await createGenerationApp(db.kind, fake.providers());
      general = await t.user('GENERAL');
      images = await seedRequest(t, general.token, 'seed-videos');
    });
    afterAll(() => t?.close());

    it('pages generated images newest first with a cursor, and filters by status', async () => {
      const first = await t.call<Page<{ id: number }>>('GET', '/api/user/generated-images?limit=4', { token: general.token });
      expect(first.status).toBe(200);
      expect(first.body.data.items).toHaveLength(4);
      expect(first.body.data.has_more).toBe(true);
      const second = await t.call<Page<{ id: number }>>('GET', `/api/user/generated-images?limit=4&cursor=${first.body.data.next_cursor}`, {
        token: general.token,
      });
      expect(second.body.data).toMatchObject({ has_more: false, next_cursor: null });
      const ids = [...first.body.data.items, ...second.body.data.items].map((i) => i.id);
      expect(ids).toEqual([...images.map((i) => i.id)].sort((a, b) => b - a));
      const failed = await t.call<Page<unknown>>('GET', '/api/user/generated-images?status=failed', { token: general.token });
      expect(failed.body.data.items).toEqual([]);
      expect((await t.call('GET', '/api/user/generated-images?status=bogus', { token: general.token })).status).toBe(400);
      expect((await t.call('GET', '/api/user/generated-images?limit=500', { token: general.token })).status).toBe(400);
    });

    it('answers every image detail field of spec §3', async () => {
      const r = await t.call<Record<string, unknown>>('GET', `/api/user/generated-images/${images[0]!.id}`, { token: general.token });
      expect(r.body.data).toMatchObject({
        user_prompt: 'A summer dress',
        moments_text: 'New in: striped twill for spring.',
        style: 'casual',
        model: 'fake-model-1',
        created_at: expect.any(String),
        size: { width: 64, height: 96, mime_type: 'image/png' },
        video_prompts: [],
        uploaded_images: {
          model: [{ role: 'model', url: expect.stringMatching(/^\/api\/files\//) }],
          pattern: [{ role: 'pattern', url: expect.stringMatching(/^\/api\/files\//) }],
        },
        fabric: { fabric_name: 'Twill' },
      });
      const stranger = await t.user('GENERAL');
      expect((await t.call('GET', `/api/user/generated-images/${images[0]!.id}`, { token: stranger.token })).status).toBe(404);
    });

    it('creates videos, streams their progress, and answers every video detail field of spec §3', async () => {
      const created = await t.call<VideoView[]>('POST', '/api/user/video-generations', {
        token: general.token,
        body: {
          items: [
            { image_id: images[0]!.id, prompt: 'Runway walk', camera: ['Push in'], aspect: 'vertical', duration: 6, resolution: '768P', user_prompt: 'walk' },
            { image_id: images[1]!.id, kind: 'first-last-frame', last_image_id: images[2]!.id, prompt: 'Turn', watermark: true, prompt_optimizer: false },
          ],
        },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.map((v) => v.status)).toEqual(['pending', 'pending']);
      const ids = created.body.data.map((v) => v.id);

      const events = await t.app.inject({
        method: 'GET',
        url: `/api/user/video-generations/events?ids=${ids.join(',')}`,
        headers: { authorization: `Bearer ${general.token}` },
      });
      const stream = sseEvents(events.body);
      expectOnContract('/api/user/video-generations/events', stream);
      expect(stream.at(-1)!.type).toBe('complete');
      const ends = stream.filter((e) => e.type === 'video').map((e) => e.video as VideoView).filter((v) => v.status === 'completed');
      expect(ends.map((v) => v.id).sort()).toEqual([...ids].sort());

      const standard = (await video(ids[0]!)).body.data;
      expect(standard).toMatchObject({
        status: 'completed',
        progress: 100,
        kind: 'standard',
        resolution: '768P',
        duration: 6,
        model: 'fake-video-1',
        width: 720,
        height: 1280,
        user_prompt: 'walk',
        video_prompt: 'Runway walk',
        style: 'casual',
        camera: ['Push in'],
        aspect: 'vertical',
        moments_text: 'New in: striped twill for spring.',
        generated_by: { provider: 'fake', model: 'fake-video-1' },
        task_id: expect.stringMatching(/^task-/),
        file_id: expect.stringMatching(/^file-task-/),
        prompt_optimizer: true,
        watermark: false,
        requested_at: expect.any(String),
        completed_at: expect.any(String),
        processing_ms: expect.any(Number),
        first_frame: { url: expect.stringMatching(/^\/api\/files\//) },
        last_frame: null,
        uploaded_images: { model: [expect.anything()], pattern: [expect.anything()] },
        can_retry: true,
        error: null,
      });
      const flf = (await video(ids[1]!)).body.data;
      expect(flf).toMatchObject({ kind: 'first-last-frame', watermark: true, prompt_optimizer: false, last_frame: { url: expect.any(String) } });
      // The two videos' jobs may run in either order.
      expect(fake.videoRequests.find((r) => r.kind === 'first-last-frame')).toMatchObject({
        kind: 'first-last-frame',
        lastFrame: { role: 'last-frame' },
        watermark: true,
      });

      // The video itself and its thumbnail (made from the first frame) behind signed links.
      const file = await t.app.inject({ method: 'GET', url: standard.url!, headers: { range: 'bytes=4-7' } });
      expect(file.statusCode).toBe(206);
      expect(file.headers['content-type']).toBe('video/mp4');
      expect(file.body).toBe('ftyp');
      const thumb = await t.app.inject({ method: 'GET', url: standard.thumbnail_url! });
      expect(thumb.headers['content-type']).toBe('image/webp');
    });

    it('pages video generations and filters them by status', async () => {
      const first = await t.call<Page<VideoView>>('GET', '/api/user/video-generations?limit=1', { token: general.token });
      expect(first.body.data).toMatchObject({ has_more: true });
      const second = await t.call<Page<VideoView>>('GET', `/api/user/video-generations?limit=1&cursor=${first.body.data.next_cursor}`, {
        token: general.token,
      });
      expect(second.body.data.items[0]!.id).toBeLessThan(first.body.data.items[0]!.id);
      const completed = await t.call<Page<VideoView>>('GET', '/api/user/video-generations?status=completed', { token: general.token });
      expect(completed.body.data.items.length).toBeGreaterThanOrEqual(2);
    });

    it('retries from the original parameters, and says so when they are missing', async () => {
      const list = await t.call<Page<VideoView>>('GET', '/api/user/video-generations?status=completed&limit=1', { token: general.token });
      const original = list.body.data.items[0]!;
      const retried = await t.call<VideoView>('POST', `/api/user/video-generations/${original.id}/retry`, { token: general.token });
      expect(retried.status).toBe(201);
      expect(retried.body.data).toMatchObject({ retry_of_id: original.id, video_prompt: original.video_prompt, kind: original.kind });
      await until(() => video(retried.body.data.id), finished);

      await generationDb(t.app.db.kysely).updateTable('video_generations').set({ params_json: null }).where('id', '=', original.id).execute();
      const refused = await t.call('POST', `/api/user/video-generations/${original.id}/retry`, { token: general.token });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Cannot retry without the original parameters');
      const zh = await t.call('POST', `/api/user/video-generations/${original.id}/retry`, {
        token: general.token,
        headers: { 'accept-language': 'zh-CN' },
      });
      expect(zh.body.message).toBe('缺少原始请求参数，无法重试');
      expect((await video(original.id)).body.data.can_retry).toBe(false);
    });

    it('cancels a running video; it ends failed as cancelled and can be retried', async () => {
      fake.switches.videoGate = true;
      const created = await t.call<VideoView[]>('POST', '/api/user/video-generations', {
        token: general.token,
        body: { image_id: images[3]!.id, prompt: 'Wait for me' },
      });
      const id = created.body.data[0]!.id;
      await until(() => video(id), (r) => r.body.data.status === 'generating');
      const cancelled = await t.call<VideoView>('POST', `/api/user/video-generations/${id}/cancel`, { token: general.token });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ status: 'failed', error: { code: 'cancelled', message: 'Video generation failed: cancelled' } });
      expect((await t.call('POST', `/api/user/video-generations/${id}/cancel`, { token: general.token })).status).toBe(409);
      fake.switches.videoGate = false;
      const again = await t.call<VideoView>('POST', `/api/user/video-generations/${id}/retry`, { token: general.token });
      expect((await until(() => video(again.body.data.id), finished)).body.data.status).toBe('completed');
    });

    it('resumes a running cloud video after a restart by polling its saved task id', async () => {
      fake.switches.videoGate = true;
      const created = await t.call<VideoView[]>('POST', '/api/user/video-generations', {
        token: general.token,
        body: { image_id: images[4]!.id, prompt: 'Across a restart' },
      });
      const id = created.body.data[0]!.id;
      const running = await until(() => video(id), (r) => r.body.data.task_id !== null && r.body.data.status === 'generating');
      const starts = fake.calls.startVideo;

      await t.restart();
      fake.switches.videoGate = false;
      const done = await until(() => video(id), finished);
      expect(done.body.data).toMatchObject({ status: 'completed', task_id: running.body.data.task_id });
      // Polled again, not started again.
      expect(fake.calls.startVideo).toBe(starts);
    });

    it('starts a local preview video over after a restart (its task lived in the old process)', async () => {
      await t.restart(fake.providers({ localPreview: true }));
      fake.switches.videoGate = true;
      const created = await t.call<VideoView[]>('POST', '/api/user/video-generations', {
        token: general.token,
        body: { image_id: images[5]!.id, prompt: 'Local across a restart' },
      });
      const id = created.body.data[0]!.id;
      await until(() => video(id), (r) => r.body.data.task_id !== null);
      const starts = fake.calls.startVideo;
      await t.restart();
      fake.switches.videoGate = false;
      expect((await until(() => video(id), finished)).body.data.status).toBe('completed');
      expect(fake.calls.startVideo).toBe(starts + 1);
      await t.restart(fake.providers());
    });

    it('is refused to designers: generation, history and video calls', async () => {
      const designer = await t.user('DESIGNER');
      for (const [method, url] of [
        ['GET', '/api/user/generated-images'],
        ['GET', `/api/user/generated-images/${images[0]!.id}`],
        ['GET', '/api/user/video-generations'],
        ['POST', '/api/user/video-generations'],
        ['POST', '/api/user/image-requests'],
        ['POST', '/image-api/regenerate-stream'],
        ['POST', '/image-api/video-prompts-stream'],
      ] as const) {
        expect((await t.call(method, url, { token: designer.token, body: {} })).status, `${method} ${url}`).toBe(403);
      }
    });
  });
}
