// PostgreSQL refuses a NUL character (U+0000) in a text column, so a request that carries one
// would end as a 500 there and be stored on SQLite. One rule at the edge refuses it on both
// databases: every text field of a JSON body or a form, every path parameter and query value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { solidPng } from './generation/helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from './generation/helpers/generation-app.js';

const REFUSED = 'Text may not contain the NUL character (U+0000)';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`a NUL character in a request, on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let admin: string;
    beforeAll(async () => {
      t = await createGenerationApp(db.kind, undefined);
      admin = await t.adminToken();
    });
    afterAll(async () => t?.close());

    const refused = (r: { status: number; body: { message: string; data: unknown } }, field?: string) => {
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(REFUSED);
      if (field) expect(r.body.data).toEqual({ errors: [{ field, message: REFUSED }] });
    };

    it('in a JSON body: a prompt, a workshop text, a nested field', async () => {
      refused(await t.call('PUT', '/api/prompts/moments/', { token: admin, body: { content: '\u0000' } }), 'content');
      refused(await t.call('POST', '/api/prompts/', { token: admin, body: { type: 'image', content: 'a\u0000b' } }));
      refused(await t.call('POST', '/third-api/workshop/items', { token: admin, headers: { 'x-api-version': 'v1' }, body: { type: 'text', text: '\u0000' } }));
      refused(await t.call('POST', '/third-api/workshop/items', { token: admin, headers: { 'x-api-version': 'v1' }, body: { type: 'text', text: 'x', config: { style: 'a\u0000' } } }), 'config.style');
    });

    it('in a form field', async () => {
      refused(
        await t.call('POST', '/image-api/analyze-images-json-stream', {
          token: admin,
          form: [
            { name: 'prompt', value: 'A dress' },
            { name: 'request_id', value: `nul-${db.kind}` },
            { name: 'fabric_name', value: 'Twill\u0000' },
            { name: 'model_images', value: await solidPng(40, 60, '#dddddd'), filename: 'm.png' },
            { name: 'pattern_images', value: await solidPng(32, 32, '#2980b9'), filename: 'p.png' },
          ],
        }),
      );
    });

    it('in a path parameter or a query value', async () => {
      refused(await t.call('POST', '/image-api/analyze-requests/%00/cancel', { token: admin }), 'request_id');
      refused(await t.call('POST', '/image-api/regenerations/%00/cancel', { token: admin }));
      refused(await t.call('GET', '/api/user/generated-images?cursor=%00', { token: admin }));
    });

    it('text without one still goes through', async () => {
      expect((await t.call('POST', '/api/prompts/', { token: admin, body: { type: 'moments', content: 'A caption \u2028 with a line separator' } })).status).toBe(201);
      expect((await t.call('PUT', '/api/prompts/moments/', { token: admin, body: { content: 'Another caption' } })).status).toBe(200);
    });
  });
}
