// The seconds between POST /prompt and its answer (a slow link, a reverse proxy): a cancel there
// takes the prompt off ComfyUI, and a restart of our server there follows the same prompt instead
// of queueing a second one, for a video and for candidates. The restart is a close of the app
// while the answer is held: the database is left as a kill -9 leaves it once the next start has
// taken back its leases (the job queued again, its row as the run last wrote it), and the answer
// never reaches the process that asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComfyDouble } from '../../support/comfyui-double.js';
import { databaseKinds } from '../helpers/databases.js';
import { comfyProviders } from './helpers/comfy-providers.js';
import { solidPng } from './helpers/fake-providers.js';
import { createGenerationApp, FAST_RUNNER, until, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

interface VideoView {
  id: number;
  status: string;
  error: { code: string } | null;
}
interface RequestView {
  request_id: string;
  status: string;
  images: { status: string }[];
}

const RUNNER = { ...FAST_RUNNER, maxRunMs: 20_000, budgetMs: 20_000 };

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`a ComfyUI prompt between its POST and the answer, on ${db.kind}`, () => {
    let double: ComfyDouble;
    let t: GenerationTestApp;
    let general: { id: number; token: string };
    let images: SeededImage[];
    const closers: (() => void)[] = [];

    const providers = () => comfyProviders(double.url, `loom-gap-test-${db.kind}`, closers);
    /** Prompts queued since `from` (an index into the double's requests), and how many of them rendered. */
    const count = (from: number) => {
      const queued = double.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/prompt').length;
      const ids = [...double.prompts.keys()].slice(-queued);
      return { queued, rendered: double.rendered.filter((id) => ids.includes(id)).length, ids };
    };
    const video = (id: number) => t.call<VideoView>('GET', `/api/user/video-generations/${id}`, { token: general.token });
    const createVideo = async (prompt: string) => {
      const created = await t.call<VideoView[]>('POST', '/api/user/video-generations', { token: general.token, body: { image_id: images[0]!.id, prompt, duration: 6 } });
      expect(created.status).toBe(201);
      return created.body.data[0]!.id;
    };
    /** Starts an analyse request on its stream, not waiting for the end (a restart cuts it). */
    const startCandidates = async (requestId: string) => {
      const form = [
        { name: 'prompt', value: 'A summer dress' },
        { name: 'request_id', value: requestId },
        { name: 'fabric_name', value: 'Twill' },
        { name: 'model_images', value: await solidPng(40, 60, '#dddddd'), filename: 'm.png' },
        { name: 'pattern_images', value: await solidPng(32, 32, '#2980b9'), filename: 'p.png' },
      ];
      void t.call('POST', '/image-api/analyze-images-json-stream', { token: general.token, form }).catch(() => undefined);
    };
    const request = async (requestId: string) =>
      (await t.call<RequestView[]>('POST', '/api/user/image-requests', { token: general.token, body: { request_ids: [requestId] } })).body.data[0];
    /** The prompts of `ids` that a POST /queue {delete} or POST /interrupt {prompt_id} named since `from`. */
    const stopped = (from: number, ids: string[]) =>
      ids.filter((id) =>
        double.requests.slice(from).some((r) => {
          const body = r.body as { delete?: string[]; prompt_id?: string } | undefined;
          return r.method === 'POST' && ((r.path === '/queue' && body?.delete?.includes(id)) || (r.path === '/interrupt' && body?.prompt_id === id));
        }),
      );
    /** Lets every held or paused run go on, and waits until ComfyUI has none of `ids` left to run. */
    const settle = async (hold: { release: () => void }, pause: { release: () => void }, ids: string[]) => {
      hold.release();
      pause.release();
      await until(async () => ids.filter((id) => double.isWaiting(id)), (left) => left.length === 0, 10_000);
    };

    beforeAll(async () => {
      double = await ComfyDouble.start();
      t = await createGenerationApp(db.kind, providers(), RUNNER);
      general = await t.user('GENERAL');
      images = await seedRequest(t, general.token, `gap-seed-${db.kind}`);
    });
    afterAll(async () => {
      await t?.close();
      for (const close of closers) close();
      await double?.stop();
    });

    it('video: a cancel before the answer deletes or interrupts the prompt, and nothing renders', async () => {
      const from = double.requests.length;
      const pause = double.pauseAt(3);
      const hold = double.holdPromptAnswers();
      const id = await createVideo('Cancelled before ComfyUI answered.');
      await hold.received(1);
      const cancelled = await t.call<VideoView>('POST', `/api/user/video-generations/${id}/cancel`, { token: general.token });
      expect(cancelled.body.data).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
      const { ids } = count(from);
      await until(async () => stopped(from, ids), (list) => list.length === ids.length, 5000).catch(() => undefined);
      expect(stopped(from, ids)).toEqual(ids);
      await settle(hold, pause, ids);
      const seen = count(from);
      console.info(`[${db.kind}] video, cancel in the gap: ${seen.queued} queued, ${seen.rendered} rendered`);
      expect(seen).toMatchObject({ queued: 1, rendered: 0 });
    });

    it('video: a restart before the answer follows the same prompt; none is queued twice', async () => {
      const from = double.requests.length;
      const pause = double.pauseAt(3);
      const hold = double.holdPromptAnswers();
      const id = await createVideo('Across a restart before ComfyUI answered.');
      await hold.received(1);
      await t.restart(providers());
      hold.release();
      pause.release();
      const done = await until(() => video(id), (r) => ['completed', 'failed'].includes(r.body.data.status), 20_000);
      const seen = count(from);
      console.info(`[${db.kind}] video, restart in the gap: ${seen.queued} queued, ${seen.rendered} rendered`);
      expect(done.body.data.status).toBe('completed');
      expect(seen).toMatchObject({ queued: 1, rendered: 1 });
    });

    it('candidates: a cancel before the answers deletes or interrupts the prompts, and nothing renders', async () => {
      const from = double.requests.length;
      const pause = double.pauseAt(3);
      const hold = double.holdPromptAnswers();
      const requestId = `gap-cancel-${db.kind}`;
      await startCandidates(requestId);
      // Two candidates at a time: both prompts are on ComfyUI, neither answered.
      await hold.received(2);
      const cancelled = await t.call('POST', `/image-api/analyze-requests/${requestId}/cancel`, { token: general.token });
      expect(cancelled.status).toBe(200);
      const { ids } = count(from);
      await until(async () => stopped(from, ids), (list) => list.length === ids.length, 5000).catch(() => undefined);
      expect(stopped(from, ids).sort()).toEqual([...ids].sort());
      await settle(hold, pause, ids);
      const seen = count(from);
      console.info(`[${db.kind}] candidates, cancel in the gap: ${seen.queued} queued, ${seen.rendered} rendered`);
      expect((await request(requestId))?.status).toBe('failed');
      expect(seen).toMatchObject({ queued: 2, rendered: 0 });
    });

    it('candidates: a restart before the answers follows the same prompts; none is queued twice', async () => {
      const from = double.requests.length;
      const pause = double.pauseAt(3);
      const hold = double.holdPromptAnswers();
      const requestId = `gap-restart-${db.kind}`;
      await startCandidates(requestId);
      await hold.received(2);
      await t.restart(providers());
      hold.release();
      pause.release();
      const done = await until(() => request(requestId), (r) => r?.status === 'completed' || r?.status === 'failed', 20_000);
      const seen = count(from);
      console.info(`[${db.kind}] candidates, restart in the gap: ${seen.queued} queued, ${seen.rendered} rendered`);
      expect(done?.images.filter((i) => i.status === 'completed')).toHaveLength(6);
      expect(seen).toMatchObject({ queued: 6, rendered: 6 });
    });
  });
}
