// A collection as the grid reads it, from rows in each state the pipeline leaves them: counts per
// status and per stage, candidates with working links and the rule's scores, the pick's reason
// and a failure in the reader's language, the results sheet, and nothing of it for another user.
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionSettings, CollectionSummary, CollectionView } from '../../../shared/collections/collection-types.js';
import { createCollectionRepository } from '../../../server/modules/collections/collection-repository.js';
import { collectionsDb } from '../../../server/modules/collections/collection-tables.js';
import { collectionViewSchema } from '../../../server/modules/collections/collection-view-schemas.js';
import { databaseKinds } from '../helpers/databases.js';
import { insertItem } from './read-helpers.js';
import { createFakeProvider } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { seedRequest, type SeededImage } from '../generation/helpers/seed.js';
import { videoRow } from '../generation/helpers/video-row.js';

const SETTINGS: CollectionSettings = {
  image_prompt: 'A summer dress',
  candidates: 6,
  pick_rule: 'score',
  stop_for_review: true,
  video: { kind: 'standard', aspect: 'vertical', camera: ['Push in'], duration: 6, resolution: '768P' },
};

const NO_FAILURE = { error_code: null, error_key: null, error_detail: null };

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`collection views on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let owner: { id: number; token: string };
    let stranger: { id: number; token: string };
    let images: SeededImage[];
    let collectionId: number;
    const ids: Record<'review' | 'failed' | 'queued', number> = { review: 0, failed: 0, queued: 0 };

    beforeAll(async () => {
      t = await createGenerationApp(db.kind, createFakeProvider().providers());
      owner = await t.user('GENERAL');
      stranger = await t.user('GENERAL');
      images = await seedRequest(t, owner.token, 'seed-collection');
      const cdb = collectionsDb(t.app.db.kysely);
      const repo = createCollectionRepository(cdb, () => new Date());
      const collection = await repo.insertCollection({
        user_id: owner.id,
        client_collection_id: 'spring-27',
        name: '春季 2027 "A"',
        language: 'zh-CN',
        status: 'running',
        settings_json: JSON.stringify(SETTINGS),
        completed_at: null,
      });
      collectionId = collection.id;
      const base = {
        collection_id: collection.id,
        user_id: owner.id,
        fabric_json: '{}',
        description: null,
        overrides_json: null,
        request_id: null,
        picked_image_id: null,
        pick_by: null,
        pick_json: null,
        video_prompt_id: null,
        video_id: null,
        started_at: null,
        completed_at: null,
        stage_started_at: null,
        ...NO_FAILURE,
      };
      const requestId = images[0]!.request_id;
      const winner = images[2]!;
      const reviewed = await insertItem(repo, {
        ...base,
        position: 0,
        code: 'F-001',
        name: 'Twill',
        request_id: requestId,
        status: 'review',
        stage: 'pick',
        picked_image_id: winner.id,
        pick_by: 'score',
        pick_json: JSON.stringify({
          rule: 'score',
          measures: 'detail and colour match to the pattern',
          scores: images.map((image, i) => ({ image_id: image.id, detail: 0.5, colour: 0.5, score: image.id === winner.id ? 0.875 : i / 10 })),
        }),
      });
      await collectionsDb(t.app.db.kysely)
        .updateTable('generation_requests')
        .set({ collection_item_id: reviewed.id })
        .where('id', '=', requestId)
        .execute();
      const failed = await insertItem(repo, {
        ...base,
        position: 1,
        code: 'F-002',
        name: null,
        status: 'failed',
        stage: 'candidates',
        error_code: 'quota',
        error_key: 'image_generation_failed',
        error_detail: 'balance 0',
      });
      const queued = await insertItem(repo, { ...base, position: 2, code: '=HYPERLINK("http://evil.example")',
        name: '-1',
        status: 'queued',
        stage: 'analysis',
        // This one goes through to the video: no item has yet, so there is nothing to measure it by.
        overrides_json: JSON.stringify({ stop_for_review: false }),
      });
      Object.assign(ids, { review: reviewed.id, failed: failed.id, queued: queued.id });
    });
    afterAll(() => t?.close());

    it('tells the collection with counts, stages, candidates, scores and the pick in words', async () => {
      const r = await t.call<CollectionView>('GET', `/api/collections/${collectionId}`, { token: owner.token });
      expect(r.status).toBe(200);
      const view = r.body.data;
      expect(collectionViewSchema.parse(view)).toEqual(view);
      expect(view).toMatchObject({
        id: collectionId,
        client_collection_id: 'spring-27',
        name: '春季 2027 "A"',
        status: 'running',
        language: 'zh-CN',
        settings: SETTINGS,
        total: 3,
        counts: { queued: 1, running: 0, review: 1, done: 0, failed: 1, skipped: 0, cancelled: 0 },
        by_stage: { analysis: 1, candidates: 0, pick: 0, video_prompts: 0, video: 0 },
        estimate_ms: null,
        completed_at: null,
      });
      expect(view.items.map((i) => i.id)).toEqual([ids.review, ids.failed, ids.queued]);
      const [reviewed, failed, queued] = view.items;
      expect(reviewed!.candidates.map((c) => c.image_id)).toEqual(images.map((i) => i.id));
      expect(reviewed!.candidates.find((c) => c.image_id === images[2]!.id)?.score).toBe(0.875);
      expect(reviewed!.candidates[0]!.score).toBe(0);
      expect(reviewed!.candidates.every((c) => c.model_rank === null)).toBe(true);
      expect(reviewed).toMatchObject({ status: 'review', stage: 'pick', picked_image_id: images[2]!.id, pick_by: 'score', error: null, video: null });
      expect(reviewed!.pick_reason).toBe(
        'Picked by the built-in score (how well detail and colour match the pattern): image 3 scored 0.88 (detail 0.5, colour 0.5)',
      );
      // Every candidate link is a working signed link.
      for (const candidate of reviewed!.candidates) {
        expect(candidate.status).toBe('completed');
        const file = await t.app.inject({ method: 'GET', url: candidate.url! });
        expect(file.statusCode).toBe(200);
      }
      expect(failed).toMatchObject({
        status: 'failed',
        stage: 'candidates',
        candidates: [],
        error: { code: 'quota', message: 'Image generation failed: the AI service quota or balance is used up; please contact an administrator' },
      });
      expect(queued).toMatchObject({ status: 'queued', stage: 'analysis', request_id: null, pick_reason: null });
    });

    it("says so when the score stood in for the model's ranking, the model's reason when it picked, and who picked when a person did", async () => {
      const cdb = collectionsDb(t.app.db.kysely);
      const winner = images[2]!.id;
      const row = await cdb.selectFrom('collection_items').select('pick_json').where('id', '=', ids.review).executeTakeFirstOrThrow();
      const stored = JSON.parse(row.pick_json!) as Record<string, unknown>;
      const read = async () =>
        (await t.call<CollectionView>('GET', `/api/collections/${collectionId}`, { token: owner.token })).body.data.items[0]!.pick_reason;
      await cdb
        .updateTable('collection_items')
        .set({ pick_json: JSON.stringify({ ...stored, fallback: { from: 'model', reason: 'not available' } }) })
        .where('id', '=', ids.review)
        .execute();
      expect(await read()).toBe(
        'Ranking by a vision model is not available, so the built-in score picked instead. Picked by the built-in score (how well detail and colour match the pattern): image 3 scored 0.88 (detail 0.5, colour 0.5)',
      );
      // The provider failed: its failure, in the reader's words.
      await cdb
        .updateTable('collection_items')
        .set({ pick_json: JSON.stringify({ ...stored, fallback: { from: 'model', cause: 'rate_limited', reason: 'gemini could not rank the candidates' } }) })
        .where('id', '=', ids.review)
        .execute();
      expect(await read()).toBe(
        "The vision model's ranking failed (the AI service stayed busy through every retry; please try again later), so the built-in score picked instead. Picked by the built-in score (how well detail and colour match the pattern): image 3 scored 0.88 (detail 0.5, colour 0.5)",
      );
      // The model picked: its first choice's reason, and each candidate's place in its ranking.
      const ranking = [images[4]!, images[2]!, images[0]!, images[1]!, images[3]!, images[5]!].map((image, i) => ({
        image_id: image.id,
        ...(i === 0 ? { reason: 'The print and its colours are the truest here' } : {}),
      }));
      await cdb
        .updateTable('collection_items')
        .set({
          pick_by: 'model',
          picked_image_id: images[4]!.id,
          pick_json: JSON.stringify({ rule: 'model', provider: 'gemini', model: 'gemini-2.5-flash', ranking, scores: stored.scores }),
        })
        .where('id', '=', ids.review)
        .execute();
      const modelPicked = (await t.call<CollectionView>('GET', `/api/collections/${collectionId}`, { token: owner.token })).body.data.items[0]!;
      expect(modelPicked.pick_reason).toBe('Ranked first by the vision model (gemini-2.5-flash): The print and its colours are the truest here');
      expect(modelPicked.candidates.map((c) => c.model_rank)).toEqual([3, 4, 2, 5, 1, 6]);
      expect(modelPicked.candidates[2]!.score).toBe(0.875);
      // A person's pick over the model's keeps the model's ranking beside the candidates.
      await cdb.updateTable('collection_items').set({ pick_by: 'person', picked_image_id: images[1]!.id }).where('id', '=', ids.review).execute();
      const overridden = (await t.call<CollectionView>('GET', `/api/collections/${collectionId}`, { token: owner.token })).body.data.items[0]!;
      expect(overridden.pick_reason).toBe('Picked by a person');
      expect(overridden.candidates[4]!.model_rank).toBe(1);
      await cdb.updateTable('collection_items').set({ picked_image_id: winner }).where('id', '=', ids.review).execute();
      expect(await read()).toBe('Picked by a person');
      await cdb.updateTable('collection_items').set({ pick_by: 'score', pick_json: row.pick_json }).where('id', '=', ids.review).execute();
      expect(await read()).toMatch(/^Picked by the built-in score/);
    });

    it('estimates the time left once every stage still to run has been measured', async () => {
      const cdb = collectionsDb(t.app.db.kysely);
      const request = await cdb.selectFrom('generation_requests').selectAll().where('id', '=', images[0]!.request_id).executeTakeFirstOrThrow();
      const analysed = await cdb
        .selectFrom('generated_images')
        .select('created_at')
        .where('request_id', '=', request.id)
        .orderBy('created_at')
        .executeTakeFirstOrThrow();
      const reviewed = await cdb.selectFrom('collection_items').select('updated_at').where('id', '=', ids.review).executeTakeFirstOrThrow();
      // Stopping for review like the reviewed one, the queued item needs analysis, candidates and the pick, as that one took them.
      await cdb.updateTable('collection_items').set({ overrides_json: null }).where('id', '=', ids.queued).execute();
      const r = await t.call<CollectionView>('GET', `/api/collections/${collectionId}`, { token: owner.token });
      const took = Date.parse(reviewed.updated_at) - Date.parse(request.started_at!);
      expect(Date.parse(analysed.created_at)).toBeGreaterThanOrEqual(Date.parse(request.started_at!));
      expect(r.body.data.estimate_ms).toBe(took);
      await cdb.updateTable('collection_items').set({ overrides_json: JSON.stringify({ stop_for_review: false }) }).where('id', '=', ids.queued).execute();
    });

    it("words the failure and the pick in the reader's language", async () => {
      const r = await t.call<CollectionView>('GET', `/api/collections/${collectionId}`, {
        token: owner.token,
        headers: { 'accept-language': 'zh-CN' },
      });
      const [reviewed, failed] = r.body.data.items;
      expect(failed!.error?.message).toBe('图片生成失败：AI 服务额度或余额已用完，请联系管理员');
      expect(reviewed!.pick_reason).toMatch(/^按内置评分选出.*第 3 张得分 0.88/);
    });

    it("never measures a fabric's video prompts across its wait for review", async () => {
      const cdb = collectionsDb(t.app.db.kysely);
      const approvedImages = await seedRequest(t, owner.token, 'seed-approved');
      // Asked for a second after the candidates ended (just now), made in ten.
      const requested = new Date(Date.now() + 1_000).toISOString();
      const video = await cdb
        .insertInto('video_generations')
        .values({
          ...videoRow({
            user_id: owner.id,
            status: 'completed',
            source_image_id: approvedImages[0]!.id,
            video_prompt: 'A slow push in',
            aspect: 'vertical',
            progress: 100,
            requested_at: requested,
            started_at: requested,
            completed_at: new Date(Date.now() + 11_000).toISOString(),
            processing_ms: 10_000,
          }),
          created_at: requested,
          updated_at: requested,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const repo = createCollectionRepository(cdb, () => new Date());
      // Approved after its review (the collection stops there), then through to its video.
      const approved = await insertItem(repo, {
        collection_id: collectionId,
        user_id: owner.id,
        position: 3,
        code: 'F-004',
        name: null,
        fabric_json: '{}',
        description: null,
        overrides_json: null,
        request_id: approvedImages[0]!.request_id,
        status: 'done',
        stage: 'video',
        picked_image_id: approvedImages[0]!.id,
        pick_by: 'score',
        pick_json: null,
        video_prompt_id: null,
        video_id: video.id,
        started_at: null,
        completed_at: null,
        stage_started_at: null,
        ...NO_FAILURE,
      });
      const estimate = async () =>
        (await t.call<CollectionView>('GET', `/api/collections/${collectionId}`, { token: owner.token })).body.data.estimate_ms;
      try {
        // The queued fabric goes through to its video: its video prompts have no measure yet.
        expect(await estimate()).toBeNull();
        // Had the done one run straight through, its span from candidates to video would be the measure.
        await cdb.updateTable('collection_items').set({ overrides_json: JSON.stringify({ stop_for_review: false }) }).where('id', '=', approved.id).execute();
        expect(await estimate()).toEqual(expect.any(Number));
      } finally {
        await cdb.deleteFrom('collection_items').where('id', '=', approved.id).execute();
      }
    });

    it("links the history's images of a collection's request back to it, and the workflow's own to none", async () => {
      const link = { id: collectionId, name: '春季 2027 "A"', code: 'F-001' };
      const detail = await t.call<{ collection: unknown }>('GET', `/api/user/generated-images/${images[0]!.id}`, { token: owner.token });
      expect(detail.body.data.collection).toEqual(link);
      const own = await seedRequest(t, owner.token, 'seed-workflow');
      const page = await t.call<{ items: { id: number; collection: unknown }[] }>('GET', '/api/user/generated-images?limit=50', { token: owner.token });
      const byId = new Map(page.body.data.items.map((i) => [i.id, i.collection]));
      for (const image of images) expect(byId.get(image.id)).toEqual(link);
      for (const image of own) expect(byId.get(image.id)).toBeNull();
    });

    it('lists the collections of their owner only, with counts', async () => {
      const mine = await t.call<{ items: CollectionSummary[] }>('GET', '/api/collections', { token: owner.token });
      expect(mine.body.data.items).toEqual([
        expect.objectContaining({ id: collectionId, name: '春季 2027 "A"', total: 3, counts: expect.objectContaining({ review: 1, failed: 1, queued: 1 }) }),
      ]);
      const theirs = await t.call<{ items: CollectionSummary[] }>('GET', '/api/collections', { token: stranger.token });
      expect(theirs.body.data.items).toEqual([]);
    });

    it("answers 404 for another user's collection, as for one that does not exist", async () => {
      for (const path of ['', '/results.csv']) {
        const theirs = await t.call('GET', `/api/collections/${collectionId}${path}`, { token: stranger.token });
        expect(theirs.status, path).toBe(404);
        expect(theirs.body.message).toBe('Resource not found');
        const none = await t.call('GET', `/api/collections/${collectionId + 1000}${path}`, { token: owner.token });
        expect(none.status, path).toBe(404);
      }
      expect((await t.call('GET', '/api/collections/abc', { token: owner.token })).status).toBe(400);
      // The workflow's tool: a designer has no collections.
      const designer = await t.user('DESIGNER');
      expect((await t.call('GET', '/api/collections', { token: designer.token })).status).toBe(403);
    });

    it('downloads the results sheet in the asked language, with a BOM and formulas escaped', async () => {
      const r = await t.call('GET', `/api/collections/${collectionId}/results.csv?language=zh-CN`, { token: owner.token });
      expect(r.status).toBe(200);
      expect(r.response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(r.response.headers['content-disposition']).toBe(
        `attachment; filename="2027 A.csv"; filename*=UTF-8''${encodeURIComponent('春季 2027 A.csv')}`,
      );
      const raw = r.response.rawPayload;
      expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = Papa.parse<string[]>(raw.toString('utf8').slice(1), { skipEmptyLines: true }).data;
      expect(rows[0]).toEqual(['编号', '名称', '状态', '阶段', '错误', '选中图片链接', '视频链接']);
      expect(rows[1]!.slice(0, 5)).toEqual(['F-001', 'Twill', '待审核', '选图', '']);
      expect(rows[1]![5]).toMatch(/^http:\/\/localhost(:\d+)?\/api\/files\/.+image-\d+\.png\?expires=\d+&sig=/);
      expect(rows[2]!.slice(0, 5)).toEqual(['F-002', '', '失败', '候选图', '图片生成失败：AI 服务额度或余额已用完，请联系管理员']);
      expect(rows[3]!.slice(0, 2)).toEqual(['\'=HYPERLINK("http://evil.example")', "'-1"]);
      // Accept-Language when no language is asked for; an unknown one is refused.
      const en = await t.call('GET', `/api/collections/${collectionId}/results.csv`, { token: owner.token });
      expect(en.response.body.slice(1).split('\r\n')[0]).toBe('Code,Name,Status,Stage,Error,Picked image link,Video link');
      expect((await t.call('GET', `/api/collections/${collectionId}/results.csv?language=fr-FR`, { token: owner.token })).status).toBe(400);
    });
  });
}
