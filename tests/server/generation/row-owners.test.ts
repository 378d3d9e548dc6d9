// A job handler that lost its job (another worker took it over) cannot write its row any more:
// the run that took the job over owns the row from its start, as an upscale job's row is written
// only by the worker that runs it. Here the app's own runner runs a video (the run that loses
// it), a second run of the same job takes it over as another worker would and stops, and the
// first run's video then arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationContext } from '../../../server/modules/generation/generation-context.js';
import { createGenerationRepository } from '../../../server/modules/generation/store/generation-repository.js';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { videoJob } from '../../../server/modules/generation/videos/video-job.js';
import type { VideoGenerator } from '../../../server/providers/capabilities.js';
import { createFileStore } from '../../../server/storage/file-store.js';
import { openBlobStore } from '../../../server/storage/open-blob-store.js';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider, type FakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, until, type GenerationTestApp } from './helpers/generation-app.js';
import { seedRequest, type SeededImage } from './helpers/seed.js';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`generation rows guarded by their run, on ${db.kind}`, () => {
    let fake: FakeProvider;
    let t: GenerationTestApp;
    let token: string;
    let images: SeededImage[];
    beforeAll(async () => {
      fake = createFakeProvider();
      t = await createGenerationApp(db.kind, fake.providers());
      token = (await t.user('GENERAL')).token;
      images = await seedRequest(t, token, `owners-seed-${db.kind}`);
    });
    afterAll(async () => t?.close());

    it('a video run that lost its job does not complete the row the new run owns', async () => {
      fake.switches.videoGate = true;
      const created = await t.call<{ id: number }[]>('POST', '/api/user/video-generations', { token, body: { image_id: images[0]!.id, prompt: 'Taken over', duration: 6 } });
      const id = created.body.data[0]!.id;
      const gdb = generationDb(t.app.db.kysely);
      const repo = createGenerationRepository(gdb, () => new Date());
      await until(() => repo.video(id), (row) => row?.task_id != null);
      const job = await gdb.selectFrom('jobs').selectAll().where('kind', '=', 'video').where('ref_id', '=', id).executeTakeFirstOrThrow();

      // Another worker's run of the same job: it takes the row, polls once and is stopped there.
      let polled!: () => void;
      const polling = new Promise<void>((resolve) => (polled = resolve));
      const hanging: VideoGenerator = {
        pollIntervalMs: 1,
        startVideo: () => Promise.reject(new Error('the task was started already')),
        pollVideo: (_taskId, signal) => {
          polled();
          return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
        },
      };
      const ctx = {
        repo,
        files: createFileStore(gdb, openBlobStore(t.config), () => new Date()),
        providers: { ...fake.providers(), videoGenerator: { impl: hanging, provider: 'fake', localPreview: false } },
        now: () => new Date(),
        log: t.app.log,
      } as unknown as GenerationContext;
      const stop = new AbortController();
      const takeover = videoJob(ctx).run({ job: { ...job, lease_owner: 'another-worker', attempts: job.attempts + 1 }, signal: stop.signal, attempt: job.attempts + 1, publish: () => undefined });
      await polling;
      stop.abort('shutdown');
      await takeover.catch(() => undefined);

      // The first run's task finishes now: it must not write the row. It stops either at its next
      // progress write (refused: the row is no longer its own) or when it tries to complete the row
      // after the gate opens; which comes first is a race, and neither may write the row.
      // The first run is in its polling loop before the gate opens: its first poll can come a moment
      // after the task id is written, so it is awaited, not assumed.
      await until(async () => fake.calls.pollVideo, (polls) => polls >= 1);
      fake.switches.videoGate = false;
      await until(async () => (await gdb.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirstOrThrow()).status, (s) => s !== 'running');
      expect(await repo.video(id)).toMatchObject({ status: 'generating', result_file_id: null });
    });
  });
}
