// Ids and other numbers are read strictly: a JSON number, or in a path, query or form a string of
// decimal digits. `true`, `[1]`, "1.0", " 1", "1e0", "0x1" are refused with 400 and the envelope,
// not read as the number a lenient parser would make of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

interface Refusal {
  errors: { field: string; message: string }[];
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`strict ids on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let general: { id: number; token: string };
    let images: SeededImage[];

    beforeAll(async () => {
      t = await createGenerationApp(db.kind, createFakeProvider().providers());
      general = await t.user('GENERAL');
      images = await seedRequest(t, general.token, 'seed-strict-ids');
    });
    afterAll(() => t?.close());

    // field: the one the refusal names; the video call's one-or-several union names the body.
    const expectRefused = (r: { status: number; body: { success: boolean; code: number; message: string; data: unknown } }, field: string) => {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, code: 400, message: 'Some fields are not valid' });
      expect((r.body.data as Refusal).errors.map((e) => e.field)).toContain(field);
    };

    it('refuses a path id that is not a string of digits', async () => {
      const id = images[0]!.id;
      const fine = await t.call('GET', `/api/user/generated-images/${id}`, { token: general.token });
      expect(fine.status).toBe(200);
      expect((await t.call('GET', `/api/user/generated-images/000${id}`, { token: general.token })).status).toBe(200);
      for (const bad of [`${id}.0`, `%20${id}`, `${id}%20`, `${id}e0`, `0x${id.toString(16)}`, 'true', '%5B1%5D', '0', '-1', '99999999999999999']) {
        expectRefused(await t.call('GET', `/api/user/generated-images/${bad}`, { token: general.token }), 'id');
      }
    });

    it('refuses query numbers that are not strings of digits', async () => {
      expect((await t.call('GET', '/api/user/generated-images?limit=2', { token: general.token })).status).toBe(200);
      for (const bad of ['limit=2.0', 'limit=1e1', 'limit=true', 'limit=', 'cursor=0x10', 'cursor=%201', 'limit=2&limit=3']) {
        const r = await t.call('GET', `/api/user/generated-images?${bad}`, { token: general.token });
        expectRefused(r, bad.slice(0, bad.indexOf('=')));
      }
      const admin = await t.adminToken();
      expect((await t.call('GET', '/api/users/?page=1&page_size=5', { token: admin })).status).toBe(200);
      expectRefused(await t.call('GET', '/api/users/?page=true', { token: admin }), 'page');
      expectRefused(await t.call('GET', `/api/users/${general.id}.0/`, { token: admin }), 'id');
    });

    it('refuses body ids given as true, a list or a decimal string', async () => {
      const id = images[0]!.id;
      for (const bad of [true, [id], `${id}.0`, ` ${id}`, `${id}e0`, 1.5, -id, {}]) {
        const r = await t.call('POST', '/api/user/video-generations', { token: general.token, body: { image_id: bad, prompt: 'Walk' } });
        expectRefused(r, '(body)');
      }
      // The same call with well-formed numbers goes through (digits in a string, as a form sends them).
      const fine = await t.call('POST', '/api/user/video-generations', {
        token: general.token,
        body: { items: [{ image_id: String(id), prompt: 'Walk', duration: '6' }] },
      });
      expect(fine.status).toBe(201);
      const many = await t.call('POST', '/api/user/video-generations', {
        token: general.token,
        body: { items: [{ image_id: id, prompt: 'Walk', duration: '6.0' }] },
      });
      expectRefused(many, '(body)');
      for (const bad of [[true], `${id}.0`, [`0x${id.toString(16)}`], [[id]]]) {
        const r = await t.call('POST', '/image-api/video-prompts-stream', { token: general.token, body: { image_ids: bad } });
        expectRefused(r, 'image_ids.0');
      }
      const events = await t.call('GET', '/api/user/video-generations/events?ids=1,2.0', { token: general.token });
      expectRefused(events, 'ids.1');
    });
  });
}
