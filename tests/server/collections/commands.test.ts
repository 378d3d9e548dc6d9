// What a person does to a running collection: review and pick, approve, pause and resume, cancel,
// retry a failed fabric (one stage made to fail by a provider double), skip and regenerate. Each
// command is a guarded move: what the rows cannot take answers 409, another user's collection 404.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COLLECTION_ACTIVE_ITEMS } from '../../../shared/collections/collection-types.js';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider, type FakeProvider } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, until, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { CHAIN_RUNNER, collection, collectionBody, items, jobsOf, tables, untilItems, type Ref } from './helpers/collection-app.js';

const settled = (s: string) => ['done', 'failed', 'review', 'skipped', 'cancelled'].includes(s);

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`collection commands on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;
    let user: { id: number; token: string };
    const post = (url: string, body?: unknown) => t.call<Ref>('POST', `/api/collections${url}`, { token: user.token, ...(body ? { body } : {}) });
    const start = async (count: number, settings = {}) => {
      const r = await post('', await collectionBody(t, user.token, count, { settings }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data.id;
    };

    beforeAll(async () => {
      fake = createFakeProvider();
      t = await createGenerationApp(db.kind, fake.providers(), CHAIN_RUNNER);
      user = await t.user('GENERAL');
    });
    beforeEach(() => {
      fake.switches.prompts = 'none';
      fake.switches.videoGate = false;
    });
    afterAll(() => t?.close());

    it('stops for review after the pick; a person picks another candidate or approves, and the fabric goes on to its video', async () => {
      // No text model ranks here: the model rule falls back to the built-in score and says so.
      const id = await start(2, { stop_for_review: true, candidates: 3, pick_rule: 'model' });
      const waiting = await untilItems(t, id, (r) => r.every((i) => i.status === 'review'));
      expect(waiting.map((i) => [i.stage, i.pick_by])).toEqual([['pick', 'score'], ['pick', 'score']]);
      expect(JSON.parse(waiting[0]!.pick_json!)).toMatchObject({ rule: 'score', fallback: { from: 'model', cause: 'no_ranker' } });
      expect((await collection(t, id)).status).toBe('running');
      expect(await tables(t).selectFrom('video_prompts').select('id').where('image_id', 'in', waiting.map((i) => i.picked_image_id!)).execute()).toEqual([]);

      const [a, b] = waiting;
      const candidates = await tables(t).selectFrom('generated_images').selectAll().where('request_id', '=', a!.request_id!).orderBy('position').execute();
      expect(candidates).toHaveLength(3);
      const other = candidates.find((c) => c.id !== a!.picked_image_id)!;
      // Not a candidate of this fabric: refused.
      const foreign = await tables(t).selectFrom('generated_images').select('id').where('request_id', '=', b!.request_id!).executeTakeFirstOrThrow();
      expect((await post(`/${id}/items/${a!.id}/pick`, { image_id: foreign.id })).status).toBe(400);
      expect((await post(`/${id}/items/${a!.id}/pick`, { image_id: other.id })).status).toBe(200);
      expect((await post(`/${id}/items/${b!.id}/approve`)).status).toBe(200);
      // Neither waits for review any more.
      expect((await post(`/${id}/items/${b!.id}/approve`)).status).toBe(409);

      const done = await untilItems(t, id, (r) => r.every((i) => i.status === 'done'));
      expect(done[0]).toMatchObject({ picked_image_id: other.id, pick_by: 'person' });
      expect(done[1]).toMatchObject({ picked_image_id: b!.picked_image_id, pick_by: 'score' });
      const video = await tables(t).selectFrom('video_generations').selectAll().where('id', '=', done[0]!.video_id!).executeTakeFirstOrThrow();
      expect(video.source_image_id).toBe(other.id);
      expect((await collection(t, id)).status).toBe('completed');
    });

    it('pauses (running stages finish, the next ones wait) and resumes to the end', async () => {
      fake.switches.videoGate = true;
      // One more fabric than run at once.
      const id = await start(COLLECTION_ACTIVE_ITEMS + 1);
      expect((await post(`/${id}/pause`)).body.data.status).toBe('paused');
      // Pausing twice is still paused.
      expect((await post(`/${id}/pause`)).status).toBe(200);
      // The running fabrics finish their stage and wait at the next one; the last never started.
      const held = await untilItems(t, id, (r) => r.every((i) => i.status === 'queued'));
      const last = held.at(-1)!;
      expect(last.stage).toBe('analysis');
      expect(last.started_at).toBeNull();
      expect(held.slice(0, -1).every((i) => i.stage !== 'analysis' && i.started_at !== null)).toBe(true);
      await new Promise((r) => setTimeout(r, 150));
      expect((await items(t, id)).every((i) => i.status === 'queued')).toBe(true);

      fake.switches.videoGate = false;
      expect((await post(`/${id}/resume`)).body.data.status).toBe('running');
      const done = await untilItems(t, id, (r) => r.every((i) => i.status === 'done'));
      expect(done).toHaveLength(COLLECTION_ACTIVE_ITEMS + 1);
      expect((await collection(t, id)).status).toBe('completed');
      // A finished collection cannot be paused.
      expect((await post(`/${id}/pause`)).status).toBe(409);
      const requestIds = done.map((i) => i.request_id!);
      expect(await jobsOf(t, 'analysis', requestIds)).toHaveLength(COLLECTION_ACTIVE_ITEMS + 1);
      expect(await jobsOf(t, 'candidates', requestIds)).toHaveLength(COLLECTION_ACTIVE_ITEMS + 1);
    });

    it('cancels every unfinished fabric and stops their jobs', async () => {
      fake.switches.videoGate = true;
      const id = await start(3);
      // Wait until a video runs, so the cancel has a job to stop.
      const running = await untilItems(t, id, (r) => r.some((i) => i.stage === 'video' && i.video_id !== null));
      expect((await post(`/${id}/cancel`)).body.data.status).toBe('cancelled');
      const rows = await items(t, id);
      expect(rows.map((i) => i.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      const videoId = running.find((i) => i.video_id !== null)!.video_id!;
      const stopped = await until(
        async () => (await jobsOf(t, 'video', [videoId]))[0]!,
        (job) => job.status !== 'queued' && job.status !== 'running',
      );
      expect(['cancelled', 'failed']).toContain(stopped.status);
      // Nothing moves afterwards, and a second cancel has nothing to do.
      expect((await items(t, id)).map((i) => i.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect((await post(`/${id}/cancel`)).status).toBe(409);
      expect((await post(`/${id}/resume`)).status).toBe(409);
    });

    it('retries a fabric that failed at its video prompts from that stage, and the failed ones of a collection at once', async () => {
      fake.switches.prompts = 'quota';
      const id = await start(2);
      const failed = await untilItems(t, id, (r) => r.every((i) => settled(i.status)));
      expect(failed.map((i) => [i.status, i.stage, i.error_key, i.error_code])).toEqual([
        ['failed', 'video_prompts', 'video_prompt_failed', 'quota'],
        ['failed', 'video_prompts', 'video_prompt_failed', 'quota'],
      ]);
      expect((await collection(t, id)).status).toBe('completed');
      fake.switches.prompts = 'none';
      const analysesBefore = fake.calls.analyse;

      expect((await post(`/${id}/items/${failed[0]!.id}/retry`)).body.data.status).toBe('running');
      expect((await post(`/${id}/items/${failed[0]!.id}/retry`)).status).toBe(409);
      await untilItems(t, id, (r) => r[0]!.status === 'done');
      expect((await post(`/${id}/retry-failed`)).status).toBe(200);
      const done = await untilItems(t, id, (r) => r.every((i) => i.status === 'done'));
      expect(done.every((i) => i.error_key === null)).toBe(true);
      // From the failed stage: nothing before it was made again.
      expect(fake.calls.analyse).toBe(analysesBefore);
      expect(await jobsOf(t, 'analysis', done.map((i) => i.request_id!))).toHaveLength(2);
      expect((await collection(t, id)).status).toBe('completed');
    });

    it('skips a waiting fabric and regenerates a finished one with a fresh request', async () => {
      const id = await start(3, { stop_for_review: true });
      // Two or three in review: the third may reach it between two reads of the rows.
      const waiting = await untilItems(t, id, (r) => r.filter((i) => i.status === 'review').length >= 2);
      const queued = waiting.find((i) => i.status === 'queued');
      if (queued) expect((await post(`/${id}/items/${queued.id}/skip`)).status).toBe(200);
      const reviewed = await untilItems(t, id, (r) => r.every((i) => i.status === 'review' || i.status === 'skipped'));
      const [first, second] = reviewed.filter((i) => i.status === 'review');
      expect((await post(`/${id}/items/${second!.id}/skip`)).status).toBe(200);
      expect((await post(`/${id}/items/${second!.id}/skip`)).status).toBe(409);
      const oldRequest = first!.request_id!;
      expect((await post(`/${id}/items/${first!.id}/regenerate`)).status).toBe(200);
      const again = await untilItems(t, id, (r) => r.find((i) => i.id === first!.id)!.status === 'review');
      const item = again.find((i) => i.id === first!.id)!;
      expect(item.request_id).not.toBe(oldRequest);
      const requests = await tables(t).selectFrom('generation_requests').select(['id', 'status']).where('collection_item_id', '=', item.id).orderBy('id').execute();
      expect(requests.map((r) => r.id)).toEqual([oldRequest, item.request_id]);
      expect(requests.map((r) => r.status)).toEqual(['completed', 'completed']);
      // The collection completes once no fabric waits for a person.
      for (const waiting of again.filter((i) => i.status === 'review')) {
        expect((await post(`/${id}/items/${waiting.id}/approve`)).status).toBe(200);
      }
      const end = await untilItems(t, id, (r) => r.every((i) => i.status === 'done' || i.status === 'skipped'));
      expect(end.find((i) => i.id === item.id)!.status).toBe('done');
      expect((await collection(t, id)).status).toBe('completed');
    });

    it("answers another user's collection as not found", async () => {
      const id = await start(1);
      const stranger = await t.user('GENERAL');
      for (const path of [`/${id}/pause`, `/${id}/cancel`, `/${id}/retry-failed`]) {
        expect((await t.call('POST', `/api/collections${path}`, { token: stranger.token })).status).toBe(404);
      }
      const [item] = await items(t, id);
      expect((await t.call('POST', `/api/collections/${id}/items/${item!.id}/skip`, { token: stranger.token })).status).toBe(404);
      // A designer has no video tool.
      const designer = await t.user('DESIGNER');
      expect((await t.call('POST', `/api/collections/${id}/pause`, { token: designer.token })).status).toBe(403);
      await untilItems(t, id, (r) => r.every((i) => i.status === 'done'));
    });
  });
}
