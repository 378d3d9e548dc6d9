// The converted graphs served for on-device upscaling: manifest, immutable graph files, the
// group's sign-in, and refusals of unknown models, stale hashes and paths outside the graphs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

interface ManifestReply {
  status: string;
  name: string;
  hash: string;
  geometry: { scale: number; prepad: number; align: number };
  variants: Record<string, string>;
  sizes: Record<string, number>;
}

describe('upscale service: graphs for on-device upscaling', () => {
  let t: TestApp;
  let designer: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    designer = (await t.createUser('DESIGNER')).token;
  });
  afterAll(() => t?.close());

  const get = (url: string, token: string | null = designer) =>
    t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('serves the manifest and the graphs it names, with long cache headers', async () => {
    const r = await get('/upscale-api/models/up2x-conservative/graphs/manifest.json');
    expect(r.statusCode).toBe(200);
    const m = r.json<ManifestReply>();
    expect(m).toMatchObject({ status: 'success', name: 'up2x-conservative', geometry: { scale: 2 } });
    expect(m.hash).toMatch(/^[0-9a-f]{16}$/);
    for (const v of ['full', 'shared', 'probe-0', 'probe-3']) expect(m.variants[v]).toBeDefined();
    const g = await get(`/upscale-api/models/up2x-conservative/graphs/${m.hash}/${m.variants['probe-0']}`);
    expect(g.statusCode).toBe(200);
    expect(g.headers['cache-control']).toContain('immutable');
    expect(g.rawPayload.length).toBe(m.sizes['probe-0']);
  });

  it('refuses without sign-in, for unknown models, stale hashes and other files', async () => {
    expect((await get('/upscale-api/models/up2x-conservative/graphs/manifest.json', null)).statusCode).toBe(401);
    expect((await get('/upscale-api/models/up9x-magic/graphs/manifest.json')).statusCode).toBe(400);
    const m = (await get('/upscale-api/models/up2x-conservative/graphs/manifest.json')).json<ManifestReply>();
    expect((await get(`/upscale-api/models/up2x-conservative/graphs/0000000000000000/full.onnx`)).statusCode).toBe(404);
    expect((await get(`/upscale-api/models/up2x-conservative/graphs/${m.hash}/manifest.json`)).statusCode).toBe(404);
    expect((await get(`/upscale-api/models/up2x-conservative/graphs/${m.hash}/..%2Ffull.onnx`)).statusCode).toBe(404);
  });
});
