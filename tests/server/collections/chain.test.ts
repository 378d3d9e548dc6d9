// A collection through the whole chain on the built-in engine: every fabric's analysis,
// candidates, pick, video prompts and video, each made exactly once, three fabrics at a time.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COLLECTION_ACTIVE_ITEMS } from '../../../shared/collections/collection-types.js';
import { databaseKinds } from '../helpers/databases.js';
import type { GenerationTestApp } from '../generation/helpers/generation-app.js';
import { collection, collectionApp, collectionBody, items, jobsOf, tables, untilItems, type Ref } from './helpers/collection-app.js';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`a collection's chain on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let user: { id: number; token: string };

    beforeAll(async () => {
      t = await collectionApp(db.kind);
      user = await t.user('GENERAL');
    });
    afterAll(() => t?.close());

    it('runs every fabric to its video, each stage made once, at most three fabrics at a time', async () => {
      // The third fabric sets its own number of candidates and video length over the collection's.
      const body = await collectionBody(t, user.token, 4, { items: (i) => (i === 2 ? { overrides: { candidates: 1, video: { duration: 10 } } } : {}) });
      // What the collection's topic is told, from before the create call: a fabric's first stage can
      // end before the call answers (the third fabric's one candidate did, on a busy machine), and a
      // subscriber that comes after it hears nothing of it.
      const published = vi.spyOn(t.app.jobs, 'publish');
      const created = await t.call<Ref>('POST', '/api/collections', { token: user.token, body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id;
      expect(created.body.data).toEqual({ id, client_collection_id: body.client_collection_id, status: 'running' });
      const heard: Record<string, unknown>[] = [];
      const stop = t.app.jobs.onProgress(`collection:${id}`, (e) => heard.push(e));

      // Right after the create call: three fabrics started, the fourth waits.
      expect(COLLECTION_ACTIVE_ITEMS).toBe(3);
      const first = await items(t, id);
      expect(first.map((i) => i.status).sort()).toEqual(['queued', 'running', 'running', 'running']);

      let mostRunning = 0;
      const rows = await untilItems(t, id, (r) => {
        mostRunning = Math.max(mostRunning, r.filter((i) => i.status === 'running').length);
        return r.every((i) => i.status === 'done' || i.status === 'failed');
      });
      expect(rows.map((i) => [i.code, i.status, i.stage, i.error_key])).toEqual([
        ['F-1', 'done', 'video', null],
        ['F-2', 'done', 'video', null],
        ['F-3', 'done', 'video', null],
        ['F-4', 'done', 'video', null],
      ]);
      expect(mostRunning).toBeLessThanOrEqual(3);
      // The collection's topic heard every fabric move, the candidates as they were saved, and the end.
      await new Promise((r) => setTimeout(r, 50));
      stop();
      const events = published.mock.calls.filter(([topic]) => topic === `collection:${id}`).map(([, event]) => event);
      published.mockRestore();
      for (const item of rows) expect(events).toContainEqual({ type: 'item_moved', item_id: item.id });
      expect(events).toContainEqual({ type: 'progress', item_id: rows[2]!.id, stage: 'candidates', progress: 100 });
      expect(events.at(-1)).toEqual({ type: 'status', status: 'completed' });
      // a subscriber hears the topic's events as they are told, up to the end
      expect(heard.length).toBeGreaterThan(0);
      expect(heard).toEqual(events.slice(events.length - heard.length));
      expect((await collection(t, id)).status).toBe('completed');
      expect((await collection(t, id)).completed_at).not.toBeNull();

      const db2 = tables(t);
      const requestIds = rows.map((i) => i.request_id!);
      const requests = await db2.selectFrom('generation_requests').selectAll().where('id', 'in', requestIds).execute();
      expect(requestIds.map((rid) => requests.find((r) => r.id === rid)).map((r) => [r!.status, r!.candidate_count, r!.aspect])).toEqual([
        ['completed', 2, 'square'],
        ['completed', 2, 'square'],
        ['completed', 1, 'square'],
        ['completed', 2, 'square'],
      ]);
      expect(requests.map((r) => r.collection_item_id).sort()).toEqual(rows.map((i) => i.id).sort());
      const images = await db2.selectFrom('generated_images').selectAll().where('request_id', 'in', requestIds).execute();
      expect(images).toHaveLength(7);
      for (const item of rows) {
        expect(item.pick_by).toBe('score');
        const pick = JSON.parse(item.pick_json!) as { rule: string; scores: { image_id: number }[] };
        expect(pick.rule).toBe('score');
        expect(pick.scores).toHaveLength(item.position === 2 ? 1 : 2);
        expect(pick.scores[0]!.image_id).toBe(item.picked_image_id);
        expect(images.find((i) => i.id === item.picked_image_id)?.request_id).toBe(item.request_id);
      }
      const pickedIds = rows.map((i) => i.picked_image_id!);
      const prompts = await db2.selectFrom('video_prompts').selectAll().where('image_id', 'in', pickedIds).execute();
      expect(prompts.length).toBeGreaterThanOrEqual(4);
      const videos = await db2.selectFrom('video_generations').selectAll().where('source_image_id', 'in', pickedIds).execute();
      expect(videos).toHaveLength(4);
      for (const v of videos) {
        const duration = rows.find((i) => i.video_id === v.id)!.position === 2 ? 10 : 6;
        expect(v).toMatchObject({ status: 'completed', aspect: 'square', duration_seconds: duration, resolution: '512P', language: 'en-US' });
        expect(JSON.parse(v.camera_json)).toEqual(['Push in']);
        expect(rows.find((i) => i.video_id === v.id)?.video_prompt_id).toBe(v.video_prompt_id);
      }

      // Each stage's job once per fabric.
      const itemIds = rows.map((i) => i.id);
      expect(await jobsOf(t, 'analysis', requestIds)).toHaveLength(4);
      expect(await jobsOf(t, 'candidates', requestIds)).toHaveLength(4);
      expect(await jobsOf(t, 'collection-pick', itemIds)).toHaveLength(4);
      expect(await jobsOf(t, 'video-prompts', pickedIds)).toHaveLength(4);
      expect(await jobsOf(t, 'video', videos.map((v) => v.id))).toHaveLength(4);
      for (const kind of ['analysis', 'candidates', 'collection-pick', 'video-prompts', 'video']) {
        const refs = kind === 'collection-pick' ? itemIds : kind === 'video-prompts' ? pickedIds : kind === 'video' ? videos.map((v) => v.id) : requestIds;
        for (const job of await jobsOf(t, kind, refs)) expect([kind, job.status, job.attempts]).toEqual([kind, 'completed', 1]);
      }
    }, 60_000);
  });
}
