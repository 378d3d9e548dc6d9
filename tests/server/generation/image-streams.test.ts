import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeProvider, type FakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

interface ImageView {
  id: number;
  parent_image_id: number | null;
  generation_id: string;
  status: string;
  url: string | null;
}
interface PromptView {
  id: number;
  image_id: number;
  position: number;
  prompt: string;
  camera: string[];
  edited: boolean;
}

let fake: FakeProvider;
let t: GenerationTestApp;
let general: { id: number; token: string };
let images: SeededImage[];

beforeAll(async () => {
  fake = createFakeProvider();
  t = await createGenerationApp('sqlite', fake.providers());
  general = await t.user('GENERAL');
  images = await seedRequest(t, general.token, 'seed-streams');
});
afterAll(() => t?.close());
beforeEach(() => {
  Object.assign(fake.switches, { images: 'none', prompts: 'none', promptFailOnCall: undefined, imageDelayMs: 0 });
});

describe('POST /image-api/regenerate-stream', () => {
  it('streams connected, start, progress, image_ready (source then new), complete with the generation ids', async () => {
    const source = images[2]!;
    const { status, events } = await t.stream('/image-api/regenerate-stream', {
      token: general.token,
      body: { user_generated_image_id: source.id, prompt: 'Make it navy', count: 2 },
    });
    expect(status).toBe(200);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(['connected', 'start', 'progress']);
    expect(types.at(-1)).toBe('complete');
    const ready = events.filter((e) => e.type === 'image_ready');
    expect(ready.map((e) => e.source)).toEqual(['original', 'gemini', 'gemini']);
    expect((ready[0]!.image as ImageView).id).toBe(source.id);
    const complete = events.at(-1)!;
    const created = (complete.images as ImageView[]).filter((i) => i.id !== source.id);
    expect(complete).toMatchObject({
      count: 3,
      gemini_count: 2,
      original_generation_id: source.generation_id,
      new_gemini_generation_id: created[0]!.generation_id,
    });
    expect(created.every((i) => i.parent_image_id === source.id && i.status === 'completed' && i.url)).toBe(true);
    expect(types.indexOf('start')).toBeLessThan(types.indexOf('image_ready'));
  });

  it('accepts the multipart form too, and names the failure as a regeneration failure', async () => {
    fake.switches.images = 'quota';
    const { events } = await t.stream('/image-api/regenerate-stream', {
      token: general.token,
      form: [
        { name: 'user_generated_image_id', value: String(images[0]!.id) },
        { name: 'prompt', value: 'Brighter' },
      ],
    });
    expect(events.at(-1)).toEqual({
      type: 'error',
      code: 'quota',
      message: 'Regeneration failed: the AI service quota or balance is used up; please contact an administrator',
    });
  });

  it("refuses a missing prompt, a too long one and someone else's image", async () => {
    const other = await t.user('GENERAL');
    const call = (token: string, body: unknown) => t.call('POST', '/image-api/regenerate-stream', { token, body });
    expect((await call(general.token, { user_generated_image_id: images[0]!.id })).status).toBe(400);
    const long = await call(general.token, { user_generated_image_id: images[0]!.id, prompt: 'y'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('at most 1000 characters');
    expect((await call(other.token, { user_generated_image_id: images[0]!.id, prompt: 'mine now' })).status).toBe(404);
  });
});

describe('POST /image-api/video-prompts-stream', () => {
  it('writes three prompts per image, streamed per image, saved with the image, and editable', async () => {
    const ids = [images[0]!.id, images[1]!.id];
    const { events } = await t.stream('/image-api/video-prompts-stream', {
      token: general.token,
      body: { image_ids: ids, prompt: 'Runway walk', language: 'en-US' },
    });
    expect(events[0]).toEqual({ type: 'connected', image_ids: ids });
    const prompts = events.filter((e) => e.type === 'prompts');
    expect(prompts.map((e) => e.image_id).sort()).toEqual([...ids].sort());
    for (const e of prompts) {
      const list = e.prompts as PromptView[];
      expect(list).toHaveLength(3);
      expect(list[0]!.prompt).toBe('Runway walk — shot 1');
      expect(list.map((p) => p.camera[0])).toEqual(['Push in', 'Pan left', 'Static shot']);
    }
    expect(events.at(-1)).toMatchObject({ type: 'complete', count: 2 });

    const detail = await t.call<{ video_prompts: PromptView[] }>('GET', `/api/user/generated-images/${ids[0]}`, { token: general.token });
    expect(detail.body.data.video_prompts).toHaveLength(3);
    const first = detail.body.data.video_prompts[0]!;
    const edited = await t.call<PromptView>('PUT', `/api/user/video-prompts/${first.id}`, {
      token: general.token,
      body: { prompt: 'Slow turn on a runway', camera: ['Zoom in'] },
    });
    expect(edited.body.data).toMatchObject({ prompt: 'Slow turn on a runway', camera: ['Zoom in'], edited: true });
    const stranger = await t.user('GENERAL');
    expect((await t.call('PUT', `/api/user/video-prompts/${first.id}`, { token: stranger.token, body: { prompt: 'x' } })).status).toBe(404);
  });

  it('reports a failed image on its own and still completes the others', async () => {
    fake.switches.promptFailOnCall = fake.calls.prompts + 1;
    const ids = [images[3]!.id, images[4]!.id];
    const { events } = await t.stream('/image-api/video-prompts-stream', { token: general.token, body: { image_ids: ids.join(',') } });
    const failed = events.filter((e) => e.type === 'image_error');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ code: 'safety', message: expect.stringMatching(/^Video prompt generation failed: /) });
    const complete = events.at(-1) as { type: string; images: { image_id: number; status: string }[] };
    expect(complete.type).toBe('complete');
    expect(complete.images.map((i) => i.status).sort()).toEqual(['completed', 'failed']);
  });

  it('refuses unknown or unfinished images before streaming', async () => {
    const r = await t.call('POST', '/image-api/video-prompts-stream', { token: general.token, body: { image_ids: [999999] } });
    expect(r.status).toBe(404);
    const empty = await t.call('POST', '/image-api/video-prompts-stream', { token: general.token, body: { image_ids: [] } });
    expect(empty.status).toBe(400);
  });
});
