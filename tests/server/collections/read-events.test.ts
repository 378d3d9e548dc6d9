// A collection's event stream over rows moved by hand, with the pipeline's words published (or,
// as in team mode when a notification is lost, not): the snapshot first, an item event with fresh
// counts for each move it hears of, a progress word passed on, a move nobody told of found by the
// stream's own re-read, then the status and the end once the collection is over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionEvent, CollectionSettings } from '../../../shared/collections/collection-types.js';
import { createCollectionRepository, type CollectionRepository } from '../../../server/modules/collections/collection-repository.js';
import { collectionsDb } from '../../../server/modules/collections/collection-tables.js';
import { STATE_CHECK_MS } from '../../../server/modules/generation/event-stream.js';
import { databaseKinds } from '../helpers/databases.js';
import { insertItem } from './read-helpers.js';
import { createFakeProvider } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { openLiveStream } from './read-helpers.js';

const SETTINGS: CollectionSettings = {
  image_prompt: 'A summer dress',
  candidates: 2,
  pick_rule: 'score',
  stop_for_review: false,
  video: { kind: 'standard', aspect: 'vertical', camera: [], duration: 6, resolution: '768P' },
};

type Of<T extends CollectionEvent['type']> = Extract<CollectionEvent, { type: T }>;
const is =
  <T extends CollectionEvent['type']>(type: T, test: (event: Of<T>) => boolean = () => true) =>
  (event: CollectionEvent): event is Of<T> =>
    event.type === type && test(event as Of<T>);

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`collection events on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let owner: { id: number; token: string };
    let repo: CollectionRepository;

    const newCollection = async (clientId: string, codes: string[]) => {
      const collection = await repo.insertCollection({
        user_id: owner.id,
        client_collection_id: clientId,
        name: clientId,
        language: 'en-US',
        status: 'running',
        settings_json: JSON.stringify(SETTINGS),
        completed_at: null,
      });
      const items = [];
      for (const [position, code] of codes.entries()) {
        items.push(
          await insertItem(repo, {
            collection_id: collection.id,
            user_id: owner.id,
            position,
            code,
            name: null,
            fabric_json: '{}',
            description: null,
            overrides_json: null,
            request_id: null,
            status: 'queued',
            stage: 'analysis',
            picked_image_id: null,
            pick_by: null,
            pick_json: null,
            video_prompt_id: null,
            video_id: null,
            started_at: null,
            completed_at: null,
            stage_started_at: null,
            error_code: null,
            error_key: null,
            error_detail: null,
          }),
        );
      }
      return { collection, items };
    };
    const publish = (collectionId: number, word: Record<string, unknown>) => t.app.jobs.publish(`collection:${collectionId}`, word);

    beforeAll(async () => {
      t = await createGenerationApp(db.kind, createFakeProvider().providers());
      owner = await t.user('GENERAL');
      repo = createCollectionRepository(collectionsDb(t.app.db.kysely), () => new Date());
    });
    afterAll(() => t?.close());

    it('sends the snapshot, each move with fresh counts, progress, a move it was not told of, then the end', async () => {
      const { collection, items } = await newCollection('live-1', ['A-1', 'A-2', 'A-3']);
      const [first, second, third] = items;
      const stream = await openLiveStream(t.app, `/api/collections/${collection.id}/events`, owner.token);
      const snapshot = await stream.next(is('snapshot'));
      expect(stream.events[0]).toBe(snapshot);
      expect(snapshot.collection).toMatchObject({ id: collection.id, total: 3, counts: { queued: 3 }, by_stage: { analysis: 3 } });
      expect(snapshot.collection.items.map((i) => i.code)).toEqual(['A-1', 'A-2', 'A-3']);

      // Told: the first item starts.
      const now = new Date().toISOString();
      expect(await repo.moveItem(first!.id, 'running', { started_at: now, stage_started_at: now })).toBe(true);
      publish(collection.id, { type: 'item_moved', item_id: first!.id });
      const moved = await stream.next(is('item', (e) => e.item.id === first!.id));
      expect(moved).toMatchObject({
        item: { status: 'running', stage: 'analysis' },
        counts: { queued: 2, running: 1 },
        by_stage: { analysis: 3 },
        estimate_ms: null,
      });

      // A stage's progress is passed on as it is; a word of another shape is not.
      publish(collection.id, { type: 'progress', item_id: first!.id, stage: 'analysis', progress: 40 });
      publish(collection.id, { type: 'progress', item_id: first!.id, stage: 'nowhere', progress: 50 });
      expect(await stream.next(is('progress'))).toEqual({ type: 'progress', item_id: first!.id, stage: 'analysis', progress: 40 });

      // Told twice of a row that has not moved since: one item event, not two.
      publish(collection.id, { type: 'item_moved', item_id: first!.id });
      // Not told (a notification lost while a replica's listener reconnected): the re-read finds it.
      expect(await repo.moveItem(second!.id, 'running', { started_at: now, stage_started_at: now })).toBe(true);
      const found = await stream.next(is('item', (e) => e.item.id === second!.id), STATE_CHECK_MS * 3);
      expect(found).toMatchObject({ item: { status: 'running' }, counts: { queued: 1, running: 2 } });

      // Cancelled: the items end, the status is told, then the end with the whole collection.
      for (const item of [first!, second!, third!]) expect(await repo.moveItem(item.id, 'cancelled')).toBe(true);
      expect(await repo.moveCollection(collection.id, 'cancelled')).toBe(true);
      publish(collection.id, { type: 'status', status: 'cancelled' });
      const end = await stream.next(is('end'));
      await stream.closed;
      expect(end.collection).toMatchObject({ status: 'cancelled', counts: { cancelled: 3, queued: 0, running: 0 }, estimate_ms: null });
      const types = stream.events.map((e) => e.type);
      expect(types[0]).toBe('snapshot');
      expect(types.at(-1)).toBe('end');
      expect(types.at(-2)).toBe('status');
      expect(stream.events.find(is('status'))).toEqual({ type: 'status', status: 'cancelled' });
      const firstItemEvents = stream.events.filter(is('item', (e) => e.item.id === first!.id && e.item.status === 'running'));
      expect(firstItemEvents).toHaveLength(1);
    });

    it('ends at once, after the snapshot, for a collection already over', async () => {
      const { collection, items } = await newCollection('live-done', ['B-1']);
      expect(await repo.moveItem(items[0]!.id, 'cancelled')).toBe(true);
      expect(await repo.moveCollection(collection.id, 'cancelled')).toBe(true);
      const stream = await openLiveStream(t.app, `/api/collections/${collection.id}/events`, owner.token);
      await stream.closed;
      expect(stream.events.map((e) => e.type)).toEqual(['snapshot', 'end']);
    });

    it("answers 404 for another user's collection before any stream", async () => {
      const { collection } = await newCollection('live-theirs', ['C-1']);
      const stranger = await t.user('GENERAL');
      const r = await t.call('GET', `/api/collections/${collection.id}/events`, { token: stranger.token });
      expect(r.status).toBe(404);
      expect(r.response.headers['content-type']).toMatch(/^application\/json/);
      expect(r.body.message).toBe('Resource not found');
    });
  });
}
