import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from './helpers/generation-app.js';

let t: GenerationTestApp;
beforeAll(async () => {
  t = await createGenerationApp('sqlite', createFakeProvider().providers());
});
afterAll(() => t?.close());

describe('GET /openapi.json', () => {
  it('documents every group\'s routes, with the schemas the routes validate with', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(r.statusCode).toBe(200);
    const doc = r.json<{ openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> }>();
    expect(doc.openapi).toBe('3.1.0');
    for (const [path, method] of [
      ['/api/auth/login-password', 'post'],
      ['/api/user/generated-images', 'get'],
      ['/api/user/generated-images/{id}', 'get'],
      ['/api/user/video-generations', 'post'],
      ['/api/user/video-generations/{id}/retry', 'post'],
      ['/api/user/image-requests', 'post'],
      ['/image-api/analyze-images-json-stream', 'post'],
      ['/image-api/regenerate-stream', 'post'],
      ['/image-api/video-prompts-stream', 'post'],
      ['/third-api/workshop/items', 'post'],
      ['/third-api/workshop/models', 'get'],
      ['/upscale-api/upscale/single', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const analyse = doc.paths['/image-api/analyze-images-json-stream']!.post!;
    expect(JSON.stringify(analyse.requestBody)).toContain('"maxLength":1000');
    expect(JSON.stringify(analyse.responses)).toContain('text/event-stream');
    const list = doc.paths['/api/user/video-generations']!.get!;
    expect((list.parameters as { name: string }[]).map((p) => p.name)).toEqual(['cursor', 'limit', 'status']);
  });
});
