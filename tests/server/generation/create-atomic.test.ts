// Creating several videos in one call is all or nothing, and a resend with the same
// Idempotency-Key answers the first call instead of making a second row; the workshop's
// create-item call and a video's retry keep the same promise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider, solidPng, type FakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

interface VideoView {
  id: number;
  status: string;
  [key: string]: unknown;
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`atomic and idempotent creation on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;
    let owner: { id: number; token: string };
    let mine: SeededImage[];
    let theirs: SeededImage[];
    let admin: string;
    const tables = () => generationDb(t.app.db.kysely);
    const videosOf = async (userId: number) =>
      (await tables().selectFrom('video_generations').select('id').where('user_id', '=', userId).execute()).map((r) => r.id);
    const jobsOf = async (kind: string, refIds: number[]) =>
      refIds.length === 0 ? [] : tables().selectFrom('jobs').select(['ref_id']).where('kind', '=', kind).where('ref_id', 'in', refIds).execute();
    const allJobs = async (kind: string) => (await tables().selectFrom('jobs').select('id').where('kind', '=', kind).execute()).length;
    const create = (body: unknown, key?: string) =>
      t.call<VideoView[]>('POST', '/api/user/video-generations', {
        token: owner.token,
        body,
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      });

    beforeAll(async () => {
      fake = createFakeProvider();
      t = await createGenerationApp(db.kind, fake.providers());
      owner = await t.user('GENERAL');
      const stranger = await t.user('GENERAL');
      mine = await seedRequest(t, owner.token, `seed-atomic-${db.kind}`);
      theirs = await seedRequest(t, stranger.token, `seed-atomic-other-${db.kind}`);
      admin = await t.adminToken();
      // Videos wait, so nothing finishes while the counts are taken.
      fake.switches.videoGate = true;
    });
    afterAll(() => t?.close());

    it('refuses a call with another user\'s image and makes none of its videos', async () => {
      const before = await videosOf(owner.id);
      const jobsBefore = await allJobs('video');
      const r = await create({
        items: [
          { image_id: mine[0]!.id, prompt: 'Mine' },
          { image_id: theirs[0]!.id, prompt: 'Not mine' },
        ],
      });
      expect(r.status).toBe(404);
      expect(await videosOf(owner.id)).toEqual(before);
      expect(await allJobs('video')).toBe(jobsBefore);
      expect(fake.videoRequests.some((v) => v.prompt === 'Mine')).toBe(false);
      // The same with the foreign image first, and with an image that is not ready at the end.
      expect((await create({ items: [{ image_id: theirs[1]!.id, prompt: 'x' }, { image_id: mine[1]!.id, prompt: 'y' }] })).status).toBe(404);
      expect(await videosOf(owner.id)).toEqual(before);
    });

    it('makes every row with its job when every item is good', async () => {
      const r = await create({ items: mine.slice(0, 3).map((i, n) => ({ image_id: i.id, prompt: `Good ${n}` })) });
      expect(r.status).toBe(201);
      const ids = r.body.data.map((v) => v.id);
      expect(ids).toHaveLength(3);
      expect((await jobsOf('video', ids)).map((j) => j.ref_id).sort()).toEqual([...ids].sort());
    });

    it('answers a resend with the same Idempotency-Key with the first call\'s videos, and makes no second row', async () => {
      const body = { items: [{ image_id: mine[2]!.id, prompt: 'Once only' }, { image_id: mine[3]!.id, prompt: 'Once only too' }] };
      const key = `videos-${db.kind}-0001`;
      const before = (await videosOf(owner.id)).length;
      const first = await create(body, key);
      expect(first.status).toBe(201);
      const again = await create(body, key);
      expect(again.status).toBe(201);
      expect(again.response.headers['idempotent-replayed']).toBe('true');
      expect(again.body.data.map((v) => v.id)).toEqual(first.body.data.map((v) => v.id));
      expect((await videosOf(owner.id)).length).toBe(before + 2);
      expect(await jobsOf('video', first.body.data.map((v) => v.id))).toHaveLength(2);

      // Two sends at once with a new key: one set of rows, both answered with it.
      const racing = `videos-${db.kind}-0002`;
      const [a, b] = await Promise.all([create(body, racing), create(body, racing)]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.data.map((v) => v.id)).toEqual(b.body.data.map((v) => v.id));
      expect((await videosOf(owner.id)).length).toBe(before + 4);
    });

    it('refuses the same key with a different body as the prompt calls do, and a malformed key', async () => {
      const key = `videos-${db.kind}-0003`;
      expect((await create({ image_id: mine[4]!.id, prompt: 'First body' }, key)).status).toBe(201);
      const count = (await videosOf(owner.id)).length;
      const other = await create({ image_id: mine[4]!.id, prompt: 'Second body' }, key);
      expect(other.status).toBe(422);
      expect(other.body.message).toBe('This idempotency key was already used for a different request');
      expect((await videosOf(owner.id)).length).toBe(count);
      expect((await create({ image_id: mine[4]!.id, prompt: 'x' }, 'bad key!')).status).toBe(400);
      // A refused call claims no key: sent again with good items, it is made.
      const fresh = `videos-${db.kind}-0004`;
      expect((await create({ items: [{ image_id: theirs[0]!.id, prompt: 'z' }] }, fresh)).status).toBe(404);
      expect((await create({ image_id: mine[5]!.id, prompt: 'z' }, fresh)).status).toBe(201);
    });

    it('replays the workshop\'s create-item call by its Idempotency-Key', async () => {
      const items = async () => (await tables().selectFrom('workshop_items').select('id').execute()).length;
      const send = async (text: string, key: string) =>
        t.call<{ id: number }>('POST', '/third-api/workshop/items', {
          token: admin,
          headers: { 'x-api-version': 'v1', 'idempotency-key': key },
          form: [
            { name: 'type', value: 'mixed' },
            { name: 'text', value: text },
            { name: 'images', value: await solidPng(48, 48, '#336699'), filename: 'swatch.png' },
          ],
        });
      fake.switches.enhancerGate = true;
      try {
        const before = await items();
        const key = `workshop-${db.kind}-0001`;
        const first = await send('Brighter', key);
        expect(first.status).toBe(201);
        const again = await send('Brighter', key);
        expect(again.status).toBe(201);
        expect(again.response.headers['idempotent-replayed']).toBe('true');
        expect(again.body.data.id).toBe(first.body.data.id);
        expect(await items()).toBe(before + 1);
        expect(await jobsOf('workshop', [first.body.data.id])).toHaveLength(1);
        const other = await send('Darker', key);
        expect(other.status).toBe(422);
        expect(await items()).toBe(before + 1);
      } finally {
        fake.switches.enhancerGate = false;
      }
    });

    it('answers a resent retry of a video with the same Idempotency-Key with the video the first made', async () => {
      const made = await create({ image_id: mine[0]!.id, prompt: 'Retried once' });
      expect(made.status).toBe(201);
      const original = made.body.data[0]!.id;
      expect((await t.call('POST', `/api/user/video-generations/${original}/cancel`, { token: owner.token })).status).toBe(200);
      const retry = (key: string) =>
        t.call<VideoView>('POST', `/api/user/video-generations/${original}/retry`, {
          token: owner.token,
          headers: { 'idempotency-key': key },
        });
      const before = (await videosOf(owner.id)).length;
      const first = await retry(`retry-${db.kind}-0001`);
      expect(first.status).toBe(201);
      const again = await retry(`retry-${db.kind}-0001`);
      expect(again.status).toBe(201);
      expect(again.response.headers['idempotent-replayed']).toBe('true');
      expect(again.body.data.id).toBe(first.body.data.id);
      expect((await videosOf(owner.id)).length).toBe(before + 1);
      expect(await jobsOf('video', [first.body.data.id])).toHaveLength(1);

      // Two at once under a new key: one new video, both answered with it; another key makes another.
      const [a, b] = await Promise.all([retry(`retry-${db.kind}-0002`), retry(`retry-${db.kind}-0002`)]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.data.id).toBe(b.body.data.id);
      expect((await videosOf(owner.id)).length).toBe(before + 2);
      expect((await retry(`retry-${db.kind}-0003`)).status).toBe(201);
      expect((await videosOf(owner.id)).length).toBe(before + 3);
    });
  });
}
