// A provider's video is stored under the type its bytes say (MP4, WebM or QuickTime), not the
// one the provider declares, and bytes that are none of them fail the video instead of being
// served as one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoGenerator } from '../../../server/providers/capabilities.js';
import { createFakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, until, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isomiso2'), Buffer.alloc(64)]);
const MOV = Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  \0\0\x02\0qt  '), Buffer.alloc(64)]);
// An EBML header whose DocType is "webm".
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]), Buffer.from('webm'), Buffer.alloc(64)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

describe('a provider video, checked by its bytes', () => {
  let t: GenerationTestApp;
  let token: string;
  let images: SeededImage[];
  /** What the provider hands over next: bytes and the type it declares. */
  let next = { data: MP4, mimeType: 'video/mp4' };

  beforeAll(async () => {
    const fake = createFakeProvider();
    const providers = fake.providers();
    const videoGenerator: VideoGenerator = {
      pollIntervalMs: 5,
      startVideo: async () => ({ taskId: `sniff-${Math.random()}`, model: 'fake-video-1' }),
      pollVideo: async () => ({ state: 'succeeded', video: { ...next, width: 64, height: 64 } }),
    };
    t = await createGenerationApp('sqlite', { ...providers, videoGenerator: { ...providers.videoGenerator!, impl: videoGenerator } });
    token = (await t.user('GENERAL')).token;
    images = await seedRequest(t, token, 'sniff-seed');
  });
  afterAll(async () => t?.close());

  const make = async (video: typeof next) => {
    next = video;
    const created = await t.call<{ id: number }[]>('POST', '/api/user/video-generations', { token, body: { image_id: images[0]!.id, prompt: 'Turning', duration: 6 } });
    expect(created.status).toBe(201);
    const id = created.body.data[0]!.id;
    const done = await until(
      () => t.call<{ status: string; url: string | null; error: { code: string } | null }>('GET', `/api/user/video-generations/${id}`, { token }),
      (r) => ['completed', 'failed'].includes(r.body.data.status),
    );
    return done.body.data;
  };
  const servedType = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).headers['content-type'];

  it('stores WebM and QuickTime under their own types, whatever was declared', async () => {
    const webm = await make({ data: WEBM, mimeType: 'video/mp4' });
    expect(webm.status).toBe('completed');
    expect(await servedType(webm.url!)).toBe('video/webm');
    const mov = await make({ data: MOV, mimeType: 'video/mp4' });
    expect(await servedType(mov.url!)).toBe('video/quicktime');
    const mp4 = await make({ data: MP4, mimeType: 'application/octet-stream' });
    expect(await servedType(mp4.url!)).toBe('video/mp4');
  });

  it('refuses bytes that are not a video', async () => {
    const png = await make({ data: PNG, mimeType: 'video/mp4' });
    expect(png).toMatchObject({ status: 'failed', url: null });
  });
});
