// The fair queue through the real calls: one user's backlog of videos neither keeps another user's
// analysis from a slot nor grows past the per-user cap (429 with Retry-After, before any row); a
// resend of a call the cap let in (a batch, a retry) is answered, not refused.
import { spawn } from 'node:child_process';
import { getPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers/databases.js';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { lowerPriority } from '../../../server/providers/local/video-render.js';
import { createFakeProvider, type FakeProvider } from './helpers/fake-providers.js';
import { FAST_RUNNER, createGenerationApp, until, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

interface VideoView {
  id: number;
  status: string;
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`fair queue on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;
    let owner: { id: number; token: string };
    let images: SeededImage[];
    const videosOf = async (userId: number) =>
      generationDb(t.app.db.kysely).selectFrom('video_generations').select(['id', 'status']).where('user_id', '=', userId).execute();
    const create = (count: number, headers: Record<string, string> = {}) =>
      t.call<VideoView[]>('POST', '/api/user/video-generations', {
        token: owner.token,
        headers,
        body: { items: Array.from({ length: count }, (_, i) => ({ image_id: images[i % images.length]!.id, prompt: `Backlog ${i}` })) },
      });

    beforeAll(async () => {
      fake = createFakeProvider();
      // Videos that wait at the provider for as long as the test says (no run-time cap cuts them short).
      t = await createGenerationApp(db.kind, fake.providers(), {
        ...FAST_RUNNER,
        maxRunMs: 120_000,
        budgetMs: 240_000,
        fairShare: { maxWaitingPerUser: 3 },
      });
      owner = await t.user('GENERAL');
      images = await seedRequest(t, owner.token, 'fair-seed');
    });
    afterAll(async () => {
      fake.switches.videoGate = false;
      await t?.close();
    });

    it("runs another user's analysis at once behind one user's backlog of videos, and refuses the backlog past the cap", async () => {
      fake.switches.videoGate = true;
      // More than the cap in one call: refused whole, nothing made.
      const tooMany = await create(4, { 'accept-language': 'zh-CN' });
      expect(tooMany.status).toBe(429);
      expect(tooMany.response.headers['retry-after']).toBe('30');
      expect(tooMany.body).toMatchObject({ success: false, code: 429, message: '您已有 3 个生成任务在排队，请 30 秒后再试' });
      expect(await videosOf(owner.id)).toEqual([]);

      // Three run (the provider's lane of four keeps one slot for interactive work), three wait.
      expect((await create(3)).status).toBe(201);
      await until(() => videosOf(owner.id), (rows) => rows.filter((r) => r.status === 'generating').length === 3);
      const key = { 'idempotency-key': `backlog-${db.kind}-0001` };
      const waiting = await create(3, key);
      expect(waiting.status).toBe(201);
      const refused = await create(1);
      expect(refused.status).toBe(429);
      expect(refused.response.headers['retry-after']).toBe('30');
      expect(refused.body.message).toBe('You already have 3 generations waiting; please try again in 30 s');
      expect(await videosOf(owner.id)).toHaveLength(6);
      // The last call's answer was lost and the page sends it again: the queue is full, but the
      // resend is answered with the videos the first made, not refused as a new call.
      const resent = await create(3, key);
      expect(resent.status).toBe(201);
      expect(resent.response.headers['idempotent-replayed']).toBe('true');
      expect(resent.body.data.map((v) => v.id)).toEqual(waiting.body.data.map((v) => v.id));
      expect(await videosOf(owner.id)).toHaveLength(6);

      // Another user's analysis and its six candidates finish while every video still waits.
      const other = await t.user('GENERAL');
      const candidates = await seedRequest(t, other.token, 'fair-other');
      expect(candidates.filter((c) => c.status === 'completed')).toHaveLength(6);
      expect((await videosOf(owner.id)).filter((r) => r.status === 'completed')).toEqual([]);

      fake.switches.videoGate = false;
      await until(() => videosOf(owner.id), (rows) => rows.every((r) => r.status === 'completed'), 20_000);
      expect((await create(3)).status).toBe(201);
    });

    it('answers a resent retry from its key while the queue is full, and refuses a new one', async () => {
      await until(() => videosOf(owner.id), (rows) => rows.every((r) => r.status === 'completed'), 20_000);
      const [done] = await videosOf(owner.id);
      const retry = (headers: Record<string, string> = {}) =>
        t.call<VideoView>('POST', `/api/user/video-generations/${done!.id}/retry`, { token: owner.token, headers });
      fake.switches.videoGate = true;
      expect((await create(3)).status).toBe(201);
      await until(() => videosOf(owner.id), (rows) => rows.filter((r) => r.status === 'generating').length === 3);
      expect((await create(2)).status).toBe(201);
      // The retry takes the last waiting place; its answer is lost and the page sends it again.
      const key = { 'idempotency-key': `retry-${db.kind}-0001` };
      const first = await retry(key);
      expect(first.status).toBe(201);
      const before = (await videosOf(owner.id)).length;
      const resent = await retry(key);
      expect(resent.status).toBe(201);
      expect(resent.response.headers['idempotent-replayed']).toBe('true');
      expect(resent.body.data.id).toBe(first.body.data.id);
      const another = await retry();
      expect(another.status).toBe(429);
      expect(another.response.headers['retry-after']).toBe('30');
      expect(await videosOf(owner.id)).toHaveLength(before);
      fake.switches.videoGate = false;
      await until(() => videosOf(owner.id), (rows) => rows.every((r) => r.status === 'completed'), 20_000);
    });
  });
}

describe('built-in video renders', () => {
  it('run at background CPU priority, so an analysis someone watches gets the processor first', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const before = getPriority(child.pid!);
      lowerPriority(child.pid);
      expect(getPriority(child.pid!)).toBe(Math.min(19, before + 10));
    } finally {
      child.kill();
    }
  });
});
