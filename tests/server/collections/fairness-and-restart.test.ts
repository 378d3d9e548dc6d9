// A collection shares the queue: while one user's collections hold every slot batch work may
// take, another user's single analysis gets a slot at once; and a restart in the middle of a collection (the
// app closed and built again on the same database) finishes it with nothing made twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider, type FakeProvider } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, until, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { seedRequest } from '../generation/helpers/seed.js';
import { CHAIN_RUNNER, collection, collectionBody, jobsOf, tables, untilItems, type Ref } from './helpers/collection-app.js';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`collections in the shared queue on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;
    let user: { id: number; token: string };
    const start = async (count: number) => {
      const r = await t.call<Ref>('POST', '/api/collections', { token: user.token, body: await collectionBody(t, user.token, count) });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data.id;
    };

    beforeAll(async () => {
      fake = createFakeProvider();
      t = await createGenerationApp(db.kind, fake.providers(), CHAIN_RUNNER);
      user = await t.user('GENERAL');
    });
    afterAll(async () => {
      fake.switches.videoGate = false;
      await t?.close();
    });

    it("runs another user's analysis at once while one user's collections hold the lane's batch slots", async () => {
      fake.switches.videoGate = true;
      const a = await start(3);
      const b = await start(3);
      // The collections' videos, waiting at the provider, fill every slot of the lane batch work
      // may hold (three of its four): the fourth is kept for a person's analysis.
      const runningVideos = () => tables(t).selectFrom('jobs').select('id').where('kind', '=', 'video').where('status', '=', 'running').execute();
      await until(runningVideos, (jobs) => jobs.length === 3);

      const other = await t.user('GENERAL');
      const candidates = await seedRequest(t, other.token, `fair-${db.kind}`);
      expect(candidates.filter((c) => c.status === 'completed')).toHaveLength(6);
      // The collections are still where they were: the other user did not wait for them.
      for (const id of [a, b]) {
        const rows = await untilItems(t, id, () => true);
        expect(rows.filter((i) => i.status === 'done')).toEqual([]);
      }

      fake.switches.videoGate = false;
      for (const id of [a, b]) await untilItems(t, id, (r) => r.every((i) => i.status === 'done'));
    });

    it('finishes a collection after a restart in the middle, with every stage made once', async () => {
      fake.switches.videoGate = true;
      const before = { ...fake.calls };
      const id = await start(3);
      // All three run at once (COLLECTION_ACTIVE_ITEMS), so all three reach their videos.
      const filming = await untilItems(t, id, (r) => r.filter((i) => i.stage === 'video' && i.video_id !== null).length === 3);
      // A quiet moment: every video's task is known (a call cut mid-way by the restart would be asked again).
      const videoIds = filming.filter((i) => i.video_id !== null).map((i) => i.video_id!);
      await until(
        () => tables(t).selectFrom('video_generations').select('task_id').where('id', 'in', videoIds).execute(),
        (v) => v.every((row) => row.task_id !== null),
      );
      await t.restart();
      fake.switches.videoGate = false;
      const rows = await untilItems(t, id, (r) => r.every((i) => i.status === 'done'));
      expect((await collection(t, id)).status).toBe('completed');

      const requestIds = rows.map((i) => i.request_id!);
      const picked = rows.map((i) => i.picked_image_id!);
      const videos = await tables(t).selectFrom('video_generations').selectAll().where('source_image_id', 'in', picked).execute();
      expect(videos.map((v) => v.status)).toEqual(['completed', 'completed', 'completed']);
      expect(await tables(t).selectFrom('generated_images').select('id').where('request_id', 'in', requestIds).execute()).toHaveLength(6);
      expect(await jobsOf(t, 'analysis', requestIds)).toHaveLength(3);
      expect(await jobsOf(t, 'candidates', requestIds)).toHaveLength(3);
      expect(await jobsOf(t, 'collection-pick', rows.map((i) => i.id))).toHaveLength(3);
      expect(await jobsOf(t, 'video-prompts', picked)).toHaveLength(3);
      expect(await jobsOf(t, 'video', videos.map((v) => v.id))).toHaveLength(3);
      // The provider was asked once per fabric and stage: the running videos were followed by their task.
      expect(fake.calls.analyse - before.analyse).toBe(3);
      expect(fake.calls.prompts - before.prompts).toBe(3);
      expect(fake.calls.startVideo - before.startVideo).toBe(3);

      // A stage's job run again after its end was committed (a worker killed before it recorded
      // the job's end) finds its work handed on, and writes nothing.
      const prompts = async () => (await tables(t).selectFrom('video_prompts').select('id').where('image_id', '=', picked[0]!).orderBy('id').execute()).map((p) => p.id);
      const promptIds = await prompts();
      const calls = fake.calls.prompts;
      await t.app.jobs.enqueue({ kind: 'video-prompts', refId: picked[0]!, userId: user.id, params: { collection_item_id: rows[0]!.id } });
      await until(() => jobsOf(t, 'video-prompts', [picked[0]!]), (jobs) => jobs.length === 2 && jobs.every((j) => j.status === 'completed'));
      expect(fake.calls.prompts).toBe(calls);
      expect(await prompts()).toEqual(promptIds);
    });
  });
}
