import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeProvider, solidPng, type FakeProvider } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, until, type GenerationTestApp } from '../generation/helpers/generation-app.js';

interface Item {
  id: number;
  type: string;
  status: string;
  text: string | null;
  images: { url: string }[];
  config: { model: string; creativity: number; precision: number; style: string };
  result: { text: string | null; images: { url: string }[]; confidence: number; model: string; processing_ms: number } | null;
  error: { code: string; message: string } | null;
  local_preview: boolean;
}
interface Page<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

const V1 = { 'x-api-version': 'v1' };

let fake: FakeProvider;
let t: GenerationTestApp;
let admin: string;
const item = (id: number) => t.call<Item>('GET', `/third-api/workshop/items/${id}`, { token: admin, headers: V1 });
const settled = (r: { body: { data: Item } }) => ['completed', 'error'].includes(r.body.data.status);

beforeAll(async () => {
  fake = createFakeProvider();
  const providers = fake.providers();
  // The built-in engine offered next to the default, as the registry does with a cloud enhancer.
  providers.enhancers = [...providers.enhancers!, { ...providers.enhancers![0]!, provider: 'local', localPreview: true }];
  t = await createGenerationApp('sqlite', providers);
  admin = await t.adminToken();
});
afterAll(() => t?.close());
beforeEach(() => {
  Object.assign(fake.switches, { enhancer: 'none', enhancerGate: false });
});

describe('the workshop (third group)', () => {
  it('lists the models on offer, naming the built-in engine as a local preview', async () => {
    const r = await t.call<{ id: string; name: string; local_preview: boolean; default: boolean }[]>('GET', '/third-api/workshop/models', {
      token: admin,
      headers: V1,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      expect.objectContaining({ id: 'fake', local_preview: false, default: true }),
      expect.objectContaining({ id: 'local', name: 'Built-in offline engine (local preview)', local_preview: true, default: false }),
    ]);
  });

  it('runs a text item from JSON to a result with confidence, model and processing time', async () => {
    const created = await t.call<Item>('POST', '/third-api/workshop/items', {
      token: admin,
      headers: V1,
      body: { type: 'text', text: '  Soft   cotton  twill ', config: { creativity: 30, precision: 0.8, style: 'professional' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'pending', config: { model: 'fake', creativity: 0.3, precision: 0.8, style: 'professional' } });
    const done = await until(() => item(created.body.data.id), settled);
    expect(done.body.data).toMatchObject({
      status: 'completed',
      result: { text: 'Soft cotton twill', confidence: 0.25, model: 'fake-enhancer-1', processing_ms: expect.any(Number), images: [] },
      error: null,
    });
  });

  it('runs an image item from a multipart form, with the result image behind a signed link', async () => {
    const created = await t.call<Item>('POST', '/third-api/workshop/items', {
      token: admin,
      headers: V1,
      form: [
        { name: 'type', value: 'mixed' },
        { name: 'text', value: 'Brighter colours' },
        { name: 'images', value: await solidPng(64, 64, '#336699'), filename: 'swatch.png' },
        { name: 'config', value: JSON.stringify({ model: 'local', style: 'natural' }) },
      ],
    });
    expect(created.status).toBe(201);
    const done = await until(() => item(created.body.data.id), settled);
    expect(done.body.data).toMatchObject({ type: 'mixed', status: 'completed', local_preview: true, images: [{ url: expect.any(String) }] });
    const result = await t.app.inject({ method: 'GET', url: done.body.data.result!.images[0]!.url });
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toBe('image/png');
  });

  it('refuses incomplete or oversized input and unknown models with clear messages', async () => {
    const post = (body: unknown) => t.call('POST', '/third-api/workshop/items', { token: admin, headers: V1, body });
    expect((await post({ type: 'text' })).body.message).toBe('text is required');
    expect((await post({ type: 'image', text: 'x' })).body.message).toBe('Please upload at least one image');
    expect((await post({ type: 'text', text: 'x'.repeat(5001) })).body.message).toBe('text must be at most 5000 characters');
    expect((await post({ type: 'text', text: 'x', config: { model: 'gpt-9' } })).body.message).toBe('Unknown model: gpt-9');
    expect((await post({ type: 'text', text: 'x', config: { style: 'baroque' } })).status).toBe(400);
    expect((await post({ type: 'image', images: ['data:image/png;base64,AAAA'] })).status).toBe(415);
  });

  it('refuses a sliver of an image or one past 32:1 from its header, naming the file, as the other groups do', async () => {
    const sliver = await sharp({ create: { width: 40_000, height: 1, channels: 3, background: '#336699' } }).png().toBuffer();
    const upload = (name: string, data: Buffer) =>
      t.call<Item>('POST', '/third-api/workshop/items', {
        token: admin,
        headers: { ...V1, 'accept-language': 'en-US' },
        form: [{ name: 'type', value: 'image' }, { name: 'images', value: data, filename: name }],
      });
    const r = await upload('sliver.png', sliver);
    expect([r.status, r.body.message]).toEqual([422, 'The image is too narrow: each side must be at least 8 pixels (sliver.png)']);
    const long = await upload('long.png', await solidPng(257, 8, '#336699'));
    expect([long.status, long.body.message]).toEqual([
      422,
      'The image is too long and thin: the longer side may be at most 32 times the shorter; please crop it (long.png)',
    ]);
    // As a data: URL in JSON too, in the language asked.
    const json = await t.call('POST', '/third-api/workshop/items', {
      token: admin,
      headers: { ...V1, 'accept-language': 'vi-VN' },
      body: { type: 'image', images: [`data:image/png;base64,${(await solidPng(4, 4, '#336699')).toString('base64')}`] },
    });
    expect([json.status, json.body.message]).toEqual([422, 'Ảnh quá hẹp: mỗi cạnh phải có ít nhất 8 điểm ảnh (image-1)']);
    const edge = await upload('edge.png', await solidPng(256, 8, '#336699'));
    expect(edge.status).toBe(201);
    const done = await until(() => item(edge.body.data.id), settled);
    expect(done.body.data.status).toBe('completed');
  });

  it('reports a provider fault as a failed item that can be retried', async () => {
    fake.switches.enhancer = 'quota';
    const created = await t.call<Item>('POST', '/third-api/workshop/items', { token: admin, headers: V1, body: { text: 'retry me' } });
    const failed = await until(() => item(created.body.data.id), settled);
    expect(failed.body.data).toMatchObject({
      status: 'error',
      error: { code: 'quota', message: 'Processing failed: the AI service quota or balance is used up; please contact an administrator' },
    });
    fake.switches.enhancer = 'none';
    const retried = await t.call<Item>('POST', `/third-api/workshop/items/${created.body.data.id}/retry`, { token: admin, headers: V1 });
    expect(retried.body.data.status).toBe('pending');
    expect((await until(() => item(created.body.data.id), settled)).body.data.status).toBe('completed');
  });

  it('answers a resent retry by its Idempotency-Key, even once its run has ended, and runs the item once', async () => {
    fake.switches.enhancer = 'quota';
    const created = await t.call<Item>('POST', '/third-api/workshop/items', { token: admin, headers: V1, body: { text: 'retried once' } });
    await until(() => item(created.body.data.id), settled);
    fake.switches.enhancer = 'none';
    const retry = (key: string) =>
      t.call<Item>('POST', `/third-api/workshop/items/${created.body.data.id}/retry`, { token: admin, headers: { ...V1, 'idempotency-key': key } });
    const runs = fake.calls.enhance;
    expect((await retry('workshop-retry-0001')).status).toBe(200);
    expect((await until(() => item(created.body.data.id), settled)).body.data.status).toBe('completed');
    expect(fake.calls.enhance).toBe(runs + 1);
    // The answer was lost and the same retry comes again: the finished item, not a second run.
    const again = await retry('workshop-retry-0001');
    expect(again.status).toBe(200);
    expect(again.response.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.status).toBe('completed');
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.calls.enhance).toBe(runs + 1);
    // A new retry asked for runs it again.
    expect((await retry('workshop-retry-0002')).body.data.status).toBe('pending');
    expect((await until(() => item(created.body.data.id), settled)).body.data.status).toBe('completed');
    expect(fake.calls.enhance).toBe(runs + 2);
  });

  it('cancels a processing item', async () => {
    fake.switches.enhancerGate = true;
    const created = await t.call<Item>('POST', '/third-api/workshop/items', { token: admin, headers: V1, body: { text: 'slow' } });
    await until(() => item(created.body.data.id), (r) => r.body.data.status === 'processing');
    const cancelled = await t.call<Item>('POST', `/third-api/workshop/items/${created.body.data.id}/cancel`, { token: admin, headers: V1 });
    expect(cancelled.body.data).toMatchObject({ status: 'error', error: { code: 'cancelled', message: 'Processing failed: cancelled' } });
    expect((await t.call('POST', `/third-api/workshop/items/${created.body.data.id}/cancel`, { token: admin, headers: V1 })).status).toBe(409);
  });

  it('lists items newest first with a cursor and a status filter', async () => {
    const first = await t.call<Page<Item>>('GET', '/third-api/workshop/items?limit=2', { token: admin, headers: V1 });
    expect(first.body.data).toMatchObject({ has_more: true });
    const second = await t.call<Page<Item>>(`GET`, `/third-api/workshop/items?limit=2&cursor=${first.body.data.next_cursor}`, {
      token: admin,
      headers: V1,
    });
    expect(second.body.data.items[0]!.id).toBeLessThan(first.body.data.items[1]!.id);
    const errors = await t.call<Page<Item>>('GET', '/third-api/workshop/items?status=error', { token: admin, headers: V1 });
    expect(errors.body.data.items.every((i) => i.status === 'error')).toBe(true);
  });

  it('accepts X-API-Version v1 or none, and refuses another version with a clear 400', async () => {
    expect((await t.call('GET', '/third-api/workshop/models', { token: admin })).status).toBe(200);
    const v2 = await t.call('GET', '/third-api/workshop/models', { token: admin, headers: { 'x-api-version': 'v2' } });
    expect(v2.status).toBe(400);
    expect(v2.body.message).toBe('Unsupported API version v2; this server speaks v1');
  });

  it('is for administrators only', async () => {
    for (const level of ['GENERAL', 'DESIGNER'] as const) {
      const user = await t.user(level);
      expect((await t.call('GET', '/third-api/workshop/items', { token: user.token, headers: V1 })).status).toBe(403);
      expect((await t.call('POST', '/third-api/workshop/items', { token: user.token, headers: V1, body: { text: 'x' } })).status).toBe(403);
    }
  });
});
