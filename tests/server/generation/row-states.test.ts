// The guarded moves of every row kind the jobs write: a finished or cancelled row never goes back
// to running, and a move that is not allowed changes nothing (and says so).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGenerationRepository } from '../../../server/modules/generation/store/generation-repository.js';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { createWorkshopRepository } from '../../../server/modules/workshop/workshop-repository.js';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider, type FakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, until, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`guarded row moves on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;
    let general: { id: number; token: string };
    let images: SeededImage[];
    const repo = () => createGenerationRepository(generationDb(t.app.db.kysely), () => new Date());

    beforeAll(async () => {
      fake = createFakeProvider();
      t = await createGenerationApp(db.kind, fake.providers());
      general = await t.user('GENERAL');
      images = await seedRequest(t, general.token, `seed-moves-${db.kind}`);
    });
    afterAll(() => t?.close());

    it('keeps a completed request and its images completed', async () => {
      const r = repo();
      const requestId = images[0]!.request_id;
      expect(await r.moveRequest(requestId, 'generating')).toBe(false);
      expect(await r.moveRequest(requestId, 'failed', { error_code: 'cancelled', error_key: 'analysis_error', error_detail: 'x' })).toBe(false);
      expect(await r.reopenRequest(requestId)).toBe(false);
      expect(await r.moveImage(images[0]!.id, 'generating')).toBe(false);
      expect(await r.moveImage(images[0]!.id, 'failed')).toBe(false);
      // The model known at the end is still added to a saved image.
      expect(await r.moveImage(images[0]!.id, 'completed', { model: 'fake-model-1' })).toBe(true);
      expect((await r.request(requestId))!.status).toBe('completed');
    });

    it('never moves a cancelled video back to generating', async () => {
      fake.switches.videoGate = true;
      const created = await t.call<{ id: number }[]>('POST', '/api/user/video-generations', {
        token: general.token,
        body: { image_id: images[1]!.id, prompt: 'Moves' },
      });
      const id = created.body.data[0]!.id;
      expect((await t.call('POST', `/api/user/video-generations/${id}/cancel`, { token: general.token })).status).toBe(200);
      const r = repo();
      // A job a worker has taken but not yet started is cancelled through the queue, and the worker
      // fails its row just after the answer; the gate stays shut until then, so it cannot finish first.
      const ended = await until(() => r.video(id), (row) => row!.status !== 'pending' && row!.status !== 'generating');
      fake.switches.videoGate = false;
      expect(ended!.status).toBe('failed');
      expect(await r.moveVideo(id, 'generating', { progress: 1 })).toBe(false);
      expect(await r.moveVideo(id, 'completed', { progress: 100 })).toBe(false);
      expect(await r.moveVideo(id, 'pending')).toBe(false);
      expect((await r.video(id))!).toMatchObject({ status: 'failed', error_code: 'cancelled' });
    });

    it('runs a workshop item again only through its retry (error → pending), never error → processing', async () => {
      fake.switches.enhancerGate = true;
      const admin = await t.adminToken();
      const created = await t.call<{ id: number }>('POST', '/third-api/workshop/items', {
        token: admin,
        headers: { 'x-api-version': 'v1' },
        body: { type: 'text', text: 'Soft twill' },
      });
      const id = created.body.data.id;
      const items = createWorkshopRepository(generationDb(t.app.db.kysely), () => new Date());
      // Cancelled while its job runs, held at the provider: a job claimed but not yet started would
      // hear the cancel only at its next heartbeat, and could finish first once the gate opens.
      await until(() => items.item(id), (row) => row!.status === 'processing');
      expect((await t.call('POST', `/third-api/workshop/items/${id}/cancel`, { token: admin, headers: { 'x-api-version': 'v1' } })).status).toBe(200);
      fake.switches.enhancerGate = false;
      // The cancel stops a running job by its signal; the job writes the error as it stops, just after
      // the answer. The job may have been claimed before it moved the item on: it is then still pending.
      const cancelled = await until(() => items.item(id), (row) => row!.status !== 'processing' && row!.status !== 'pending');
      expect(cancelled!.status).toBe('error');
      expect(await items.move(id, 'processing')).toBe(false);
      expect(await items.move(id, 'completed')).toBe(false);
      const retried = await t.call('POST', `/third-api/workshop/items/${id}/retry`, { token: admin, headers: { 'x-api-version': 'v1' } });
      expect(retried.status).toBe(200);
      const done = await until(() => items.item(id), (row) => row!.status === 'completed' || row!.status === 'error');
      expect(done!.status).toBe('completed');
    });
  });
}
