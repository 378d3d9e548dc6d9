// A collection's stages are batch work, its analyses and candidates too: on a lane of two slots
// they hold at most one, so another person's analysis at the workflow page starts at once even
// while the collection's candidates hang at the provider. Before, two of the collection's
// candidates jobs held both slots and the person's analysis waited for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider, solidPng, type FakeProvider } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, until, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { CHAIN_RUNNER, collectionBody, jobsOf, tables, untilItems, type Ref } from './helpers/collection-app.js';

/** Two slots on every lane (the built-in engine's default); a hung call holds its slot for the whole test. */
const TWO_SLOTS = { ...CHAIN_RUNNER, concurrency: () => 2 };

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`a collection as batch work on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;

    beforeAll(async () => {
      fake = createFakeProvider();
      t = await createGenerationApp(db.kind, fake.providers(), TWO_SLOTS);
    });
    afterAll(async () => {
      fake.switches.images = 'none';
      await t?.close();
    });

    it("lets another person's analysis run while the collection's candidates hold the lane", async () => {
      const designer = await t.user('GENERAL');
      fake.switches.images = 'hang';
      const created = await t.call<Ref>('POST', '/api/collections', { token: designer.token, body: await collectionBody(t, designer.token, 3) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id;
      // The collection's first fabric is at its candidates, which hang at the provider.
      const rows = await untilItems(t, id, (r) => r.some((i) => i.stage === 'candidates' && i.status === 'running'));
      const running = async () =>
        (await jobsOf(t, 'candidates', rows.map((i) => i.request_id!))).filter((j) => j.status === 'running').length;
      await until(running, (n) => n === 1);

      const other = await t.user('GENERAL');
      const stream = t.stream('/image-api/analyze-images-json-stream', {
        token: other.token,
        form: [
          { name: 'prompt', value: 'A summer dress' },
          { name: 'request_id', value: `walk-in-${db.kind}` },
          { name: 'fabric_name', value: 'Twill' },
          { name: 'pattern_images', value: await solidPng(32, 32, '#2980b9'), filename: 'p.png' },
        ],
      });
      // Its analysis is written while the collection's candidates still hang: it did not wait for them.
      const analysed = await until(
        () => tables(t).selectFrom('generation_requests').select(['analysis_text']).where('user_id', '=', other.id).executeTakeFirst(),
        (r) => !!r?.analysis_text,
        10_000,
      );
      expect(analysed?.analysis_text).toBeTruthy();
      // The collection never held more than its batch share of the lane.
      expect(await running()).toBeLessThanOrEqual(1);

      // The hung calls end with the collection and the person's request.
      expect((await t.call('POST', `/api/collections/${id}/cancel`, { token: designer.token })).status).toBe(200);
      expect((await t.call('POST', `/image-api/analyze-requests/walk-in-${db.kind}/cancel`, { token: other.token })).status).toBe(200);
      fake.switches.images = 'none';
      expect((await stream).events.at(-1)?.type).toBe('error');
      await untilItems(t, id, (r) => r.every((i) => i.status === 'cancelled'));
    }, 60_000);
  });
}
