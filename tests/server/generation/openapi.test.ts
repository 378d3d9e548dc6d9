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

  it('names the answers: the envelope around a named schema, or the service\'s own body', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
    }>();
    const answer = (path: string, method: string, status = '200') =>
      doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema as
        | { $ref?: string; properties?: Record<string, unknown> }
        | undefined;
    expect(answer('/api/user/generated-images/{id}', 'get')?.properties).toMatchObject({
      success: { type: 'boolean' },
      data: { $ref: '#/components/schemas/ImageDetail' },
    });
    expect(answer('/api/user/video-generations/{id}/retry', 'post', '201')?.properties?.data).toEqual({
      $ref: '#/components/schemas/VideoDetail',
    });
    expect(answer('/third-api/workshop/items', 'get')?.properties?.data).toEqual({ $ref: '#/components/schemas/WorkshopItemPage' });
    expect(answer('/upscale-api/models/{name}/graphs/manifest.json', 'get')).toEqual({ $ref: '#/components/schemas/GraphManifest' });
    expect(Object.keys(doc.components.schemas.VideoDetail!.properties!)).toEqual(
      expect.arrayContaining(['id', 'status', 'camera', 'first_frame', 'uploaded_images', 'can_retry']),
    );
    // A request body's named schema is its own, apart from any answer's.
    expect(doc.components.schemas.VideoSpecInput).toBeDefined();
  });

  it('names each event stream\'s events: one schema per stream, a union of its events', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      components: { schemas: Record<string, { oneOf?: { properties?: { type?: { const?: string } } }[] }> };
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
    }>();
    const streams = {
      AnalyzeEvent: ['/image-api/analyze-images-json-stream', 'post'],
      RegenerateEvent: ['/image-api/regenerate-stream', 'post'],
      VideoPromptsEvent: ['/image-api/video-prompts-stream', 'post'],
      VideoEvent: ['/api/user/video-generations/events', 'get'],
      WorkshopStreamEvent: ['/third-api/workshop/items/{id}/events', 'get'],
      UpscaleBatchEvent: ['/upscale-api/upscale/batch', 'post'],
    } as const;
    for (const [name, [path, method]] of Object.entries(streams)) {
      expect(doc.paths[path]?.[method]?.responses['200']?.content?.['text/event-stream']?.schema, path).toEqual({
        $ref: `#/components/schemas/${name}`,
      });
    }
    const types = (name: string) => doc.components.schemas[name]!.oneOf!.map((member) => member.properties?.type?.const);
    // Spec §4's regenerate and analyse events, by name.
    expect(types('RegenerateEvent')).toEqual(['connected', 'start', 'progress', 'image_ready', 'complete', 'error']);
    expect(types('AnalyzeEvent')).toEqual(expect.arrayContaining(['progress', 'streaming', 'complete', 'error']));
  });
});
