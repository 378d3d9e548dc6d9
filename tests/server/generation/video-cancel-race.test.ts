// Cancelling videos while their jobs start: a cancel that lands while a job is between its claim
// and its first write must leave the row cancelled (failed, code "cancelled"), never "generating".
// The runner settles a cancel without waiting for the job, so the job's own writes have to lose.
import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider, type FakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, sseEvents, until, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';
import { orderProblems } from './helpers/video-stream-order.js';

interface VideoView {
  id: number;
  status: string;
  progress: number;
  error: { code: string; message: string } | null;
  [key: string]: unknown;
}

/** The open file descriptors of this process that point at `file`. */
function openHandlesOn(file: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) count++;
    } catch {
      // The descriptor closed while the list was read.
    }
  }
  return count;
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`cancelling videos as their jobs start, on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;
    let general: { id: number; token: string };
    let images: SeededImage[];
    const video = (id: number) => t.call<VideoView>('GET', `/api/user/video-generations/${id}`, { token: general.token });
    const rowsOf = (ids: number[]) =>
      generationDb(t.app.db.kysely).selectFrom('video_generations').select(['id', 'status', 'error_code']).where('id', 'in', ids).execute();
    const jobsOf = (ids: number[]) =>
      generationDb(t.app.db.kysely).selectFrom('jobs').select(['ref_id', 'status']).where('kind', '=', 'video').where('ref_id', 'in', ids).execute();
    /** The events stream of these videos read to its end; a stream that never ends fails the test (it hung before the fix). */
    const eventsOf = async (ids: number[]) => {
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the events stream never ended: a row was left running')), 20_000);
      });
      try {
        const r = await Promise.race([
          t.app.inject({
            method: 'GET',
            url: `/api/user/video-generations/events?ids=${ids.join(',')}`,
            headers: { authorization: `Bearer ${general.token}` },
          }),
          hung,
        ]);
        return sseEvents(r.body);
      } finally {
        clearTimeout(timer);
      }
    };

    beforeAll(async () => {
      fake = createFakeProvider();
      t = await createGenerationApp(db.kind, fake.providers());
      general = await t.user('GENERAL');
      images = await seedRequest(t, general.token, `seed-cancel-race-${db.kind}`);
    });
    afterAll(() => t?.close());

    it('cancels ten videos made in one call, all at once: every row ends cancelled and the stream ends', async () => {
      fake.switches.videoGate = true;
      const allIds: number[] = [];
      // Three rounds, as the probe did: each cancel frees a slot, and the next claimed job races its own cancel.
      for (let round = 0; round < 3; round++) {
        const created = await t.call<VideoView[]>('POST', '/api/user/video-generations', {
          token: general.token,
          body: { items: Array.from({ length: 10 }, (_, i) => ({ image_id: images[i % images.length]!.id, prompt: `Storm ${round}.${i}` })) },
        });
        expect(created.status).toBe(201);
        const ids = created.body.data.map((v) => v.id);
        allIds.push(...ids);
        // Some jobs are claimed and running when the cancels arrive.
        await until(() => jobsOf(ids), (jobs) => jobs.some((j) => j.status === 'running'));
        const watching = eventsOf(ids);
        const answers = await Promise.all(
          ids.map((id) => t.call<VideoView>('POST', `/api/user/video-generations/${id}/cancel`, { token: general.token })),
        );
        // Every cancel is answered alike: accepted, and the row it shows is not left running.
        expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
        const events = await watching;
        expect(events.at(-1)!.type).toBe('complete');
        // Every video's final view came before complete, and nothing of a video after its final view.
        expect(orderProblems(events, ids)).toEqual([]);
        const ended = events.filter((e) => e.type === 'video').map((e) => e.video as VideoView).filter((v) => v.status === 'failed');
        expect(new Set(ended.map((v) => v.id))).toEqual(new Set(ids));
      }
      // Every job is settled, and no stray write of a job that kept running brought a row back.
      await until(() => jobsOf(allIds), (jobs) => jobs.every((j) => j.status === 'cancelled'));
      fake.switches.videoGate = false;
      const settle = await eventsOf(allIds);
      expect(settle.at(-1)!.type).toBe('complete');
      expect(orderProblems(settle, allIds)).toEqual([]);
      const rows = await rowsOf(allIds);
      expect(rows.filter((r) => r.status !== 'failed' || r.error_code !== 'cancelled')).toEqual([]);
      // A cancelled video stays cancelled: a second cancel says it already finished, and a retry works.
      const again = await t.call('POST', `/api/user/video-generations/${allIds[0]}/cancel`, { token: general.token });
      expect(again.status).toBe(409);
      const retried = await t.call<VideoView>('POST', `/api/user/video-generations/${allIds[0]}/retry`, { token: general.token });
      expect(retried.status).toBe(201);
      const done = await until(() => video(retried.body.data.id), (r) => ['completed', 'failed'].includes(r.body.data.status));
      expect(done.body.data.status).toBe('completed');
    });

    it('cancels a video whose job has just started, before its first write', async () => {
      // The job's first-frame read is held on a named pipe: the job is claimed and running, but has
      // written nothing yet. The cancel is settled meanwhile; then the read is let go.
      fake.switches.videoGate = true;
      const source = images[5]!;
      const [row] = await generationDb(t.app.db.kysely).selectFrom('generated_images').select('file_id').where('id', '=', source.id).execute();
      const file = path.join(t.dataDir, 'files', row!.file_id!.slice(0, 2), row!.file_id!);
      const kept = `${file}.kept`;
      renameSync(file, kept);
      execFileSync('mkfifo', ['-m', '600', file]);
      try {
        const created = await t.call<VideoView[]>('POST', '/api/user/video-generations', {
          token: general.token,
          body: { image_id: source.id, prompt: 'Held at the start' },
        });
        const id = created.body.data[0]!.id;
        // Opening the pipe's write end returns once the job has opened its read end.
        const writer = await open(file, 'w');
        expect((await jobsOf([id]))[0]!.status).toBe('running');

        const cancelled = await t.call<VideoView>('POST', `/api/user/video-generations/${id}/cancel`, { token: general.token });
        expect(cancelled.status).toBe(200);
        expect(cancelled.body.data).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });

        // Let the read go, and wait until the job has closed the pipe (its next step is its write).
        await writer.writeFile(await readFile(kept));
        await writer.close();
        await until(async () => openHandlesOn(file), (n) => n === 0);
        // The job's write (if any) is queued before this read on SQLite's one connection; on
        // PostgreSQL it runs on another connection, so look a few times.
        for (let i = 0; i < 10; i++) {
          expect((await video(id)).body.data).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
          await new Promise((r) => setTimeout(r, 20));
        }
        expect(fake.videoRequests.some((r) => r.prompt === 'Held at the start')).toBe(false);
        const events = await eventsOf([id]);
        expect(events.at(-1)!.type).toBe('complete');
      } finally {
        rmSync(file, { force: true });
        renameSync(kept, file);
      }
      fake.switches.videoGate = false;
      const [cancelledRow] = await generationDb(t.app.db.kysely)
        .selectFrom('video_generations')
        .select('id')
        .where('video_prompt', '=', 'Held at the start')
        .execute();
      const retried = await t.call<VideoView>('POST', `/api/user/video-generations/${cancelledRow!.id}/retry`, { token: general.token });
      expect(retried.status).toBe(201);
      const done = await until(() => video(retried.body.data.id), (r) => ['completed', 'failed'].includes(r.body.data.status));
      expect(done.body.data.status).toBe('completed');
    });
  });
}
