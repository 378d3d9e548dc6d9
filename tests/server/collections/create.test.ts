// The create call's bounds: what the import page checked is checked again, uploads must be the
// caller's own finished ones made for a collection, a resend (even two at once) answers the same
// collection, and a user's open fabrics are capped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { CHAIN_RUNNER, collectionBody, items, swatch, tables, untilItems, upload, type Ref } from './helpers/collection-app.js';
import { COLLECTION_MAX_OPEN_ITEMS_PER_USER } from '../../../server/modules/collections/create-collection.js';
import { MAX_COLLECTION_IMAGES, MAX_COLLECTION_ITEMS } from '../../../shared/collections/collection-types.js';
import { MAX_IMAGES_TOTAL } from '../../../shared/generation/image-limits.js';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`creating a collection on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let user: { id: number; token: string };
    const create = (body: unknown, token = user.token) => t.call<Ref>('POST', '/api/collections', { token, body });

    beforeAll(async () => {
      const fake = createFakeProvider();
      fake.switches.videoGate = true;
      t = await createGenerationApp(db.kind, fake.providers(), CHAIN_RUNNER);
      user = await t.user('GENERAL');
    });
    afterAll(() => t?.close());

    it('refuses what breaks the rules the page checked, before anything is made', async () => {
      const body = await collectionBody(t, user.token, 2);
      const [a, b] = body.items;
      const refused = async (changed: unknown, key: string) => {
        const r = await create(changed);
        expect([r.status, r.body.message]).toEqual([400, expect.any(String)]);
        if (key) expect(r.body.message, key).toMatch(new RegExp(key, 'i'));
      };
      await refused({ ...body, items: [a, { ...b, code: a!.code }] }, 'appears more than once');
      await refused({ ...body, items: [a, { ...b, code: ` ${a!.code.toLowerCase()} ` }] }, 'appears more than once');
      await refused({ ...body, items: [a, { ...b, code: '  ' }] }, 'Row 2 has no fabric code');
      await refused({ ...body, items: [{ ...a, pattern_upload_ids: [] }] }, 'needs 1 to 10 images');
      await refused({ ...body, items: [{ ...a, model_upload_ids: Array(7).fill(a!.pattern_upload_ids[0]) }] }, '');
      await refused({ ...body, items: [{ ...a, model_upload_ids: Array(6).fill('x'), pattern_upload_ids: Array(5).fill('y') }] }, '');
      await refused({ ...body, items: [{ ...a, fabric: { fabric_name: 'x'.repeat(101) } }] }, '');
      await refused({ ...body, items: [{ ...a, fabric: { remarks: 'x'.repeat(501) } }] }, '');
      await refused({ ...body, items: [{ ...a, fabric: { not_a_field: 'x' } }] }, '');
      await refused({ ...body, settings: { ...body.settings, candidates: 7 } }, '');
      await refused({ ...body, settings: { ...body.settings, video: { ...body.settings.video, camera: ['Push in', 'Pan left', 'Zoom in', 'Shake'] } } }, '');
      await refused({ ...body, items: Array.from({ length: MAX_COLLECTION_ITEMS + 1 }, (_, i) => ({ ...a, code: `C${i}` })) }, '');
      // The collection's image bound, where rows of ten images can pass it within the row bound
      // (with 500 rows of ten as the bound, the row bound is the one that holds).
      const over = Math.floor(MAX_COLLECTION_IMAGES / MAX_IMAGES_TOTAL) + 1;
      if (over <= MAX_COLLECTION_ITEMS) {
        const ten = { model_upload_ids: Array(5).fill(a!.pattern_upload_ids[0]), pattern_upload_ids: Array(5).fill(a!.pattern_upload_ids[0]) };
        await refused({ ...body, items: Array.from({ length: over }, (_, i) => ({ ...a, ...ten, code: `C${i}` })) }, `at most ${MAX_COLLECTION_IMAGES} images`);
      }
      expect(await tables(t).selectFrom('collections').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it("refuses another user's upload, an unfinished one, and one made for another purpose", async () => {
      const stranger = await t.user('GENERAL');
      const theirs = await upload(t, stranger.token, await swatch(9));
      const body = await collectionBody(t, user.token, 1);
      const r = await create({ ...body, items: [{ ...body.items[0]!, pattern_upload_ids: [theirs] }] });
      expect(r.status).toBe(404);
      const analysis = await upload(t, user.token, await swatch(10), 'analysis');
      expect((await create({ ...body, items: [{ ...body.items[0]!, pattern_upload_ids: [analysis] }] })).status).toBe(400);
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/uploads/',
        headers: {
          authorization: `Bearer ${user.token}`,
          'tus-resumable': '1.0.0',
          'upload-length': '1000',
          'upload-metadata': `filename ${Buffer.from('a.png').toString('base64')},filetype ${Buffer.from('image/png').toString('base64')},purpose ${Buffer.from('collection').toString('base64')}`,
        },
      });
      const unfinished = started.headers.location!.split('/').pop()!;
      expect((await create({ ...body, items: [{ ...body.items[0]!, pattern_upload_ids: [unfinished] }] })).status).toBe(409);
      expect(await tables(t).selectFrom('collections').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it('answers a resend, and two sends at once, with the one collection', async () => {
      const body = await collectionBody(t, user.token, 2);
      const [one, two] = await Promise.all([create(body), create(body)]);
      expect([one.status, two.status]).toEqual([201, 201]);
      expect(one.body.data.id).toBe(two.body.data.id);
      const again = await create(body);
      expect(again.body.data).toEqual(one.body.data);
      expect(again.response.headers['idempotent-replayed']).toBe('true');
      const rows = await tables(t).selectFrom('collections').select('id').where('client_collection_id', '=', body.client_collection_id).execute();
      expect(rows).toHaveLength(1);
      const made = await items(t, one.body.data.id);
      expect(made).toHaveLength(2);
      const requests = await tables(t).selectFrom('generation_requests').select('id').where('collection_item_id', 'in', made.map((i) => i.id)).execute();
      expect(requests).toHaveLength(2);
      // The same upload in two fabrics is stored once and serves both.
      await untilItems(t, one.body.data.id, (r) => r.every((i) => i.status === 'running'));
    });

    it(`refuses more than ${COLLECTION_MAX_OPEN_ITEMS_PER_USER} open fabrics per user with 429 queue_full`, async () => {
      const busy = await t.user('GENERAL');
      const body = await collectionBody(t, busy.token, 1);
      const id = body.items[0]!.pattern_upload_ids[0]!;
      const many = (n: number, prefix: string) => ({
        ...body,
        client_collection_id: `${prefix}-${Math.random().toString(36).slice(2)}`,
        items: Array.from({ length: n }, (_, i) => ({ ...body.items[0]!, code: `${prefix}${i}`, pattern_upload_ids: [id] })),
      });
      expect((await create(many(COLLECTION_MAX_OPEN_ITEMS_PER_USER - 1, 'A'), busy.token)).status).toBe(201);
      const over = await create(many(2, 'B'), busy.token);
      expect(over.status).toBe(429);
      expect(over.response.headers['retry-after']).toBeDefined();
      expect((await create(many(1, 'C'), busy.token)).status).toBe(201);
    }, 30_000);
  });
}
