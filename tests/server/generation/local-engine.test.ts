// End to end through the real built-in engine (no keys, no network): analysis of made-up images,
// six candidates, three video prompts, a real MP4, and a workshop item, over HTTP only.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMp4Facts, videoTrack } from '../../../server/providers/local/index.js';
import { createGenerationApp, FAST_RUNNER, sseEvents, until, type GenerationTestApp } from './helpers/generation-app.js';

interface ImageView {
  id: number;
  status: string;
  model: string;
  provider: string;
  url: string;
}

let t: GenerationTestApp;
let token: string;

const stripes = () =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96">${Array.from(
        { length: 12 },
        (_, i) => `<rect x="${i * 8}" y="0" width="8" height="96" fill="${i % 2 ? '#1f4e9c' : '#d8342b'}"/>`,
      ).join('')}</svg>`,
    ),
  )
    .png()
    .toBuffer();

beforeAll(async () => {
  // No provider override: what the server's settings choose, which with no keys is the built-in engine.
  t = await createGenerationApp('sqlite', undefined, { ...FAST_RUNNER, maxRunMs: 120_000, budgetMs: 120_000 }, {
    textPauseMs: 0,
    video: { fps: 8, maxShortSide: 144, pollIntervalMs: 50 },
  });
  token = (await t.user('GENERAL')).token;
});
afterAll(() => t?.close());

describe('the built-in engine through the HTTP API', () => {
  it('analyses, makes six distinct candidates, writes video prompts and renders an MP4', async () => {
    const model = await sharp({ create: { width: 80, height: 120, channels: 3, background: '#c8b8a8' } }).png().toBuffer();
    const analysed = await t.stream('/image-api/analyze-images-json-stream', {
      token,
      form: [
        { name: 'prompt', value: 'A summer shirt dress' },
        { name: 'request_id', value: 'local-e2e' },
        { name: 'fabric_name', value: 'Cotton poplin stripe' },
        { name: 'language', value: 'en-US' },
        { name: 'aspect', value: 'vertical' },
        { name: 'model_images', value: model, filename: 'model.png' },
        { name: 'pattern_images', value: await stripes(), filename: 'stripes.png' },
      ],
    });
    const last = analysed.events.at(-1) as { type: string; data: { images: ImageView[]; analysis: { colors: { hex: string }[] } } };
    expect(last.type, JSON.stringify(last)).toBe('complete');
    expect(analysed.events.some((e) => e.type === 'streaming')).toBe(true);
    const images = last.data.images;
    expect(images).toHaveLength(6);
    expect(images.every((i) => i.status === 'completed' && i.provider === 'local' && /local preview/.test(i.model))).toBe(true);
    const bytes = await Promise.all(images.map(async (i) => (await t.app.inject({ method: 'GET', url: i.url })).rawPayload.toString('base64')));
    expect(new Set(bytes).size).toBe(6);

    const prompts = await t.stream('/image-api/video-prompts-stream', { token, body: { image_ids: [images[0]!.id], language: 'en-US' } });
    const written = prompts.events.find((e) => e.type === 'prompts') as { prompts: { id: number; prompt: string }[] };
    expect(written.prompts).toHaveLength(3);
    expect(new Set(written.prompts.map((p) => p.prompt)).size).toBe(3);

    const created = await t.call<{ id: number }[]>('POST', '/api/user/video-generations', {
      token,
      body: { image_id: images[0]!.id, video_prompt_id: written.prompts[0]!.id, duration: 6, resolution: '512P', aspect: 'vertical', watermark: true },
    });
    expect(created.status).toBe(201);
    const id = created.body.data[0]!.id;
    const events = await t.app.inject({ method: 'GET', url: `/api/user/video-generations/events?ids=${id}`, headers: { authorization: `Bearer ${token}` } });
    expect(sseEvents(events.body).at(-1)!.type).toBe('complete');
    const detail = await until(
      () => t.call<{ status: string; url: string; error: unknown }>('GET', `/api/user/video-generations/${id}`, { token }),
      (r) => r.body.data.status !== 'pending' && r.body.data.status !== 'generating',
      60_000,
    );
    expect(detail.body.data, JSON.stringify(detail.body.data.error)).toMatchObject({ status: 'completed' });
    const mp4 = await t.app.inject({ method: 'GET', url: detail.body.data.url });
    expect(mp4.headers['content-type']).toBe('video/mp4');
    const facts = readMp4Facts(mp4.rawPayload);
    expect(facts.durationSeconds).toBeCloseTo(6, 0);
    const track = videoTrack(facts)!;
    expect(track.codec).toBe('avc1');
    expect(track.height).toBeGreaterThan(track.width);
  }, 120_000);

  it("words candidate labels in the reader's language, whatever language the run was made in", async () => {
    const model = await sharp({ create: { width: 80, height: 120, channels: 3, background: '#c8b8a8' } }).png().toBuffer();
    // A run made in Chinese (as one without any language is: zh-CN is the default).
    const analysed = await t.stream('/image-api/analyze-images-json-stream', {
      token,
      headers: { 'accept-language': 'zh-CN' },
      form: [
        { name: 'prompt', value: 'A summer shirt dress' },
        { name: 'request_id', value: 'local-labels' },
        { name: 'model_images', value: model, filename: 'model.png' },
        { name: 'pattern_images', value: await stripes(), filename: 'stripes.png' },
      ],
    });
    const last = analysed.events.at(-1) as { type: string; data: { images: (ImageView & { label: string })[] } };
    expect(last.type, JSON.stringify(last)).toBe('complete');
    expect(last.data.images.map((i) => i.label)).toContain('Lookbook 拼图');
    const ids = last.data.images.map((i) => i.id);
    const read = async (language: string) => {
      const list = await t.call<{ items: { id: number; label: string }[] }>('GET', '/api/user/generated-images?limit=50', {
        token,
        headers: { 'accept-language': language },
      });
      return list.body.data.items.filter((i) => ids.includes(i.id)).map((i) => i.label);
    };
    const english = await read('en-US');
    expect(english).toHaveLength(6);
    expect(english).toContain('Lookbook grid');
    for (const label of english) expect(label).not.toMatch(/\p{Script=Han}/u);
    expect(await read('vi-VN')).toContain('Lưới lookbook');
    const detail = await t.call<{ label: string }>('GET', `/api/user/generated-images/${ids[5]}`, { token, headers: { 'accept-language': 'id-ID' } });
    expect(detail.body.data.label).toBe('Kisi lookbook');
  }, 60_000);

  it('runs a workshop text item through the built-in engine, saying how little it did', async () => {
    const admin = await t.adminToken();
    const models = await t.call<{ id: string; local_preview: boolean }[]>('GET', '/third-api/workshop/models', { token: admin });
    expect(models.body.data).toEqual([expect.objectContaining({ id: 'local', local_preview: true, default: true })]);
    const created = await t.call<{ id: number }>('POST', '/third-api/workshop/items', {
      token: admin,
      headers: { 'x-api-version': 'v1' },
      body: { type: 'text', text: 'Cotton  poplin ,soft hand feel .' },
    });
    const done = await until(
      () => t.call<{ status: string; result: { text: string; confidence: number; model: string } | null }>('GET', `/third-api/workshop/items/${created.body.data.id}`, { token: admin }),
      (r) => r.body.data.status === 'completed' || r.body.data.status === 'error',
      30_000,
    );
    expect(done.body.data.status).toBe('completed');
    expect(done.body.data.result!.confidence).toBeLessThan(0.5);
    expect(done.body.data.result!.model).toMatch(/local preview/);
  }, 60_000);

  it('enhances a workshop image with our Real-CUGAN engine and names the model and scale it used', async () => {
    const admin = await t.adminToken();
    const photo = await sharp(await stripes()).extract({ left: 0, top: 0, width: 48, height: 40 }).png().toBuffer();
    const created = await t.call<{ id: number }>('POST', '/third-api/workshop/items', {
      token: admin,
      headers: { 'x-api-version': 'v1' },
      form: [
        { name: 'type', value: 'image' },
        { name: 'images', value: photo, filename: 'photo.png' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    type Result = { model: string; images: { url: string }[] };
    const done = await until(
      () => t.call<{ status: string; result: Result | null; error: unknown }>('GET', `/third-api/workshop/items/${created.body.data.id}`, { token: admin }),
      (r) => r.body.data.status === 'completed' || r.body.data.status === 'error',
      90_000,
    );
    expect(done.body.data.status, JSON.stringify(done.body.data.error)).toBe('completed');
    expect(done.body.data.result!.model).toMatch(/local preview\) · Real-CUGAN up2x-conservative ×2 \(48×40 → 96×80\)$/);
    const file = await t.app.inject({ method: 'GET', url: done.body.data.result!.images[0]!.url });
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([96, 80]);
  }, 120_000);

  it("polishes the issue's example offline and keeps exactly what it changed with the result", async () => {
    const admin = await t.adminToken();
    const created = await t.call<{ id: number }>('POST', '/third-api/workshop/items', {
      token: admin,
      headers: { 'x-api-version': 'v1' },
      body: { type: 'text', text: 'Soft floral chifon, light and airy, good for sumer dresses. very nice hand feel' },
    });
    type Result = { text: string; text_changes: { spelling: unknown; changes: { rule: string; from: string; to: string }[] } | null };
    const done = await until(
      () => t.call<{ status: string; result: Result | null }>('GET', `/third-api/workshop/items/${created.body.data.id}`, { token: admin }),
      (r) => r.body.data.status === 'completed' || r.body.data.status === 'error',
      30_000,
    );
    expect(done.body.data.status).toBe('completed');
    const result = done.body.data.result!;
    expect(result.text).toBe('Soft floral chiffon, light and airy, good for summer dresses. Very nice hand feel.');
    expect(result.text_changes!.spelling).toEqual({ checked: true, dictionary: 'en-US' });
    expect(result.text_changes!.changes.map((c) => `${c.from}→${c.to}`)).toEqual(['. very→. Very', 'feel→feel.', 'chifon→chiffon', 'sumer→summer']);
  }, 60_000);
});
