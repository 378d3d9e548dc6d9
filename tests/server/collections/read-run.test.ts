// A collection read while the real pipeline runs it on the built-in engine: the stream's snapshot
// first, an item event each time a fabric moves (with counts that add up), the time left once a
// fabric is done, the end with every fabric's candidates, scores, pick and video; then the view,
// the results sheet's links and the history's link back to the collection.
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTION_ACTIVE_ITEMS, type CollectionEvent, type CollectionView, type ItemStatus } from '../../../shared/collections/collection-types.js';
import { databaseKinds } from '../helpers/databases.js';
import type { GenerationTestApp } from '../generation/helpers/generation-app.js';
import { collectionApp, collectionBody, type Ref } from './helpers/collection-app.js';
import { openLiveStream } from './read-helpers.js';

/** One more fabric than run at once, so the last starts after the stream opened. */
const FABRICS = COLLECTION_ACTIVE_ITEMS + 1;
const CODES = Array.from({ length: FABRICS }, (_, i) => `F-${i + 1}`);

type Of<T extends CollectionEvent['type']> = Extract<CollectionEvent, { type: T }>;

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`a running collection read on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let user: { id: number; token: string };

    beforeAll(async () => {
      t = await collectionApp(db.kind);
      user = await t.user('GENERAL');
    });
    afterAll(() => t?.close());

    it('streams the collection from its snapshot through every move to the end', async () => {
      const body = await collectionBody(t, user.token, FABRICS);
      const created = await t.call<Ref>('POST', '/api/collections', { token: user.token, body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id;

      const stream = await openLiveStream(t.app, `/api/collections/${id}/events`, user.token);
      const end = (await stream.next((e) => e.type === 'end', 60_000)) as Of<'end'>;
      await stream.closed;
      const events = stream.events;
      expect(events[0]!.type).toBe('snapshot');
      expect(events.at(-1)).toBe(end);
      expect(events.filter((e) => e.type === 'snapshot' || e.type === 'end')).toHaveLength(2);
      expect((events[0] as Of<'snapshot'>).collection.total).toBe(FABRICS);

      // Every item event's counts add up to the collection, and every fabric is seen finishing.
      const itemEvents = events.filter((e): e is Of<'item'> => e.type === 'item');
      const ofCollection = (itemId: number) => end.collection.items.some((i) => i.id === itemId);
      expect(itemEvents.length).toBeGreaterThanOrEqual(FABRICS);
      for (const e of itemEvents) {
        expect(Object.values(e.counts).reduce((a, b) => a + b, 0)).toBe(FABRICS);
        expect(e.counts.running).toBeLessThanOrEqual(COLLECTION_ACTIVE_ITEMS);
      }
      // The stages' progress is passed on as the pipeline tells it (the last fabric's candidates at least come after the stream opened).
      const progress = events.filter((e): e is Of<'progress'> => e.type === 'progress');
      expect(progress.some((e) => e.stage === 'candidates')).toBe(true);
      for (const e of progress) expect(ofCollection(e.item_id)).toBe(true);
      const doneCodes = new Set(itemEvents.filter((e) => e.item.status === 'done').map((e) => e.item.code));
      const snapshotDone = (events[0] as Of<'snapshot'>).collection.items.filter((i) => i.status === 'done').map((i) => i.code);
      expect(new Set([...doneCodes, ...snapshotDone])).toEqual(new Set(CODES));
      // Before a fabric is done there is no time left to tell; after the first, the later ones' events carry one.
      const firstDone = itemEvents.findIndex((e) => e.counts.done >= 1);
      for (const e of itemEvents.slice(0, firstDone)) expect(e.estimate_ms).toBeNull();
      const laterOpen = itemEvents.slice(firstDone).filter((e) => e.counts.queued + e.counts.running > 0);
      for (const e of laterOpen) expect(e.estimate_ms).toEqual(expect.any(Number));

      const collection = end.collection;
      expect(collection).toMatchObject({ status: 'completed', total: FABRICS, counts: { done: FABRICS }, estimate_ms: 0 });
      expect(collection.completed_at).not.toBeNull();
      expect(collection.by_stage).toEqual({ analysis: 0, candidates: 0, pick: 0, video_prompts: 0, video: 0 });
      for (const item of collection.items) {
        expect(item).toMatchObject({ status: 'done', stage: 'video', error: null, pick_by: 'score' });
        expect(item.candidates).toHaveLength(2);
        for (const c of item.candidates) expect(c).toMatchObject({ status: 'completed', url: expect.stringMatching(/^\/api\/files\//), score: expect.any(Number) });
        expect(item.pick_reason).toMatch(/^Picked by the built-in score .*: image [12] scored /);
        expect(item.video_prompt).toEqual(expect.any(String));
        expect(item.video).toMatchObject({ status: 'completed', progress: 100, url: expect.stringMatching(/^\/api\/files\/.+\.mp4\?/) });
      }

      // The view reads the same, and the sheet links the picked image and the video.
      const view = await t.call<CollectionView>('GET', `/api/collections/${id}`, { token: user.token });
      expect(view.body.data.items.map((i) => i.video?.url)).toEqual(collection.items.map((i) => i.video?.url));
      const csv = await t.call('GET', `/api/collections/${id}/results.csv?language=en-US`, { token: user.token });
      const rows = Papa.parse<string[]>(csv.response.body.slice(1), { skipEmptyLines: true }).data;
      expect(rows.slice(1).map((r) => r.slice(0, 5))).toEqual(CODES.map((code, i) => [code, `Fabric ${i + 1}`, 'Done', 'Video', '']));
      for (const [i, row] of rows.slice(1).entries()) {
        const item = collection.items[i]!;
        const picked = item.candidates.find((c) => c.image_id === item.picked_image_id)!;
        // Absolute links on the server's own origin (the sheet is read outside the PWA).
        const pickedLink = new URL(row[5]!);
        const videoLink = new URL(row[6]!);
        expect(pickedLink.origin).toMatch(/^http:\/\/localhost(:80)?$/);
        expect(pickedLink.pathname + pickedLink.search).toBe(picked.url);
        expect(videoLink.pathname + videoLink.search).toBe(item.video!.url);
        const file = await t.app.inject({ method: 'GET', url: videoLink.pathname + videoLink.search });
        expect(file.statusCode).toBe(200);
        expect(file.headers['content-type']).toBe('video/mp4');
      }

      // The history links each fabric's images, request and video back to the collection.
      const link = (code: string) => ({ id, name: 'Spring season', code });
      const history = await t.call<{ items: { id: number; collection: unknown }[] }>('GET', '/api/user/generated-images?limit=50', { token: user.token });
      for (const item of collection.items) {
        for (const c of item.candidates) expect(history.body.data.items.find((i) => i.id === c.image_id)?.collection).toEqual(link(item.code));
      }
      const videos = await t.call<{ items: { id: number; collection: unknown }[] }>('GET', '/api/user/video-generations', { token: user.token });
      for (const item of collection.items) expect(videos.body.data.items.find((v) => v.id === item.video!.id)?.collection).toEqual(link(item.code));
      const detail = await t.call<{ collection: unknown }>('GET', `/api/user/video-generations/${collection.items[0]!.video!.id}`, { token: user.token });
      expect(detail.body.data.collection).toEqual(link('F-1'));
      const requests = await t.call<{ id: number; collection: unknown }[]>('POST', '/api/user/image-requests', { token: user.token, body: { limit: 10 } });
      expect(requests.body.data.map((r) => r.collection).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(CODES.map(link));

      // The list counts them.
      const list = await t.call<{ items: { id: number; counts: Record<ItemStatus, number> }[] }>('GET', '/api/collections', { token: user.token });
      expect(list.body.data.items.find((c) => c.id === id)?.counts.done).toBe(FABRICS);
    });
  });
}
