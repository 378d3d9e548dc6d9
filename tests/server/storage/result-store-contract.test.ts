// One contract for every upscale ResultStore: on the local disk (also a volume several processes
// share) and in an S3-compatible bucket (s3rver here). A staged result is invisible until it is
// published; once published any process serves it, whole or by byte range; the sweep removes old
// ones; and a keyed request's replay record written before publishing is never replayed for a
// result that did not appear (a crash in between), on either store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/database.js';
import { createUsersRepository } from '../../../server/modules/users/users-repository.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { DurableReplays } from '../../../server/modules/upscale/durable-replays.js';
import { IdempotentResults, REPLAY_GRACE_MS } from '../../../server/modules/upscale/idempotent-results.js';
import { createResultStore, type ResultStore } from '../../../server/modules/upscale/result-store.js';
import { createDiskBlobStore } from '../../../server/storage/disk-blob-store.js';
import { createS3BlobStore } from '../../../server/storage/s3-blob-store.js';
import type { UpscaleEnginePort } from '../../../server/modules/upscale/upscale-engine-port.js';
import type { UpscaleParams } from '../../../server/modules/upscale/upscale-params.js';
import type { UpscaleService } from '../../../server/modules/upscale/upscale-service.js';
import { makeImage, oneSlotService } from '../upscale-service/upscale-helpers.js';
import { startS3Server, type S3TestServer } from './s3-server.js';

async function drain(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

let s3: S3TestServer;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A factory of stores on one storage: each call is another process on the same folder or bucket. */
const implementations: { name: string; storage: () => () => ResultStore }[] = [
  {
    name: 'disk',
    storage: () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-results-'));
      dirs.push(dataDir);
      return () => createResultStore(createDiskBlobStore(dataDir));
    },
  },
  {
    name: 's3',
    storage: () => {
      const prefix = `results-${Math.random().toString(36).slice(2)}`;
      return () => createResultStore(createS3BlobStore(s3.bucket(prefix)));
    },
  },
];

for (const impl of implementations) {
  describe(`ResultStore contract: ${impl.name}`, () => {
    let open: () => ResultStore;
    let store: ResultStore;
    let other: ResultStore;
    beforeAll(() => {
      open = impl.storage();
      store = open();
      other = open();
    });
    afterAll(() => {
      store?.close();
      other?.close();
    });

    it('a staged result is seen by no one until it is published, then by every process', async () => {
      const data = await makeImage('png', 48, 32);
      const staged = await store.stage('fabric_up2x-conservative.png', data);
      expect(staged).toMatchObject({ filename: 'fabric_up2x-conservative.png', size: data.length });
      expect(staged.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      for (const s of [store, other]) {
        expect(await s.has(staged.id)).toBe(false);
        expect(await s.size(staged.id, staged.filename)).toBeUndefined();
        expect(await s.open(staged.id, staged.filename)).toBeUndefined();
      }
      await staged.publish();
      for (const s of [store, other]) {
        expect(await s.has(staged.id)).toBe(true);
        expect(await s.size(staged.id, staged.filename)).toBe(data.length);
        expect((await drain(await s.open(staged.id, staged.filename)))?.equals(data)).toBe(true);
        expect((await drain(await s.open(staged.id, staged.filename, { start: 0, end: 0 })))?.equals(data.subarray(0, 1))).toBe(true);
        expect(
          (await drain(await s.open(staged.id, staged.filename, { start: 5, end: data.length - 1 })))?.equals(data.subarray(5)),
        ).toBe(true);
      }
    });

    it('a discarded result never appears; save() publishes at once', async () => {
      const staged = await store.stage('gone.png', Buffer.from('not kept'));
      await staged.discard();
      expect(await other.has(staged.id)).toBe(false);
      const saved = await store.save('kept.webp', Buffer.from('kept bytes'));
      expect(await other.size(saved.id, 'kept.webp')).toBe(10);
    });

    it('answers nothing for names that are not its own', async () => {
      const saved = await store.save('a.png', Buffer.from('abc'));
      expect(await store.size(saved.id, 'b.png')).toBeUndefined();
      expect(await store.open(saved.id, 'b.png')).toBeUndefined();
      for (const [id, name] of [
        ['../../etc', 'passwd'],
        [saved.id, '../a.png'],
        [saved.id, '.hidden'],
        ['short', 'a.png'],
      ] as const) {
        if (id !== saved.id) expect(await store.has(id)).toBe(false);
        expect(await store.size(id, name)).toBeUndefined();
        expect(await store.open(id, name)).toBeUndefined();
      }
    });

    it('the sweep keeps results within their lifetime and removes older ones for every process', async () => {
      const saved = await store.save('old.png', Buffer.from('old'));
      expect(await store.sweep(3600, Date.now())).toBe(0);
      expect(await other.sweep(3600, Date.now() + 3601_000)).toBeGreaterThanOrEqual(1);
      expect(await store.has(saved.id)).toBe(false);
      expect(await store.open(saved.id, 'old.png')).toBeUndefined();
    });

    it('a replay record written before publishing is not replayed when the result never appeared', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-result-replays-'));
      dirs.push(dataDir);
      const now = () => new Date();
      let runs = 0;
      const engine: UpscaleEnginePort = {
        listModels: async () => [{ name: 'up2x-conservative', scale: 2, denoise: 'conservative' }],
        upscale: async (input) => {
          runs += 1;
          return { data: Buffer.from(input), format: 'png', width: 2, height: 2, scale: 2, durationMs: 1 };
        },
        close: async () => undefined,
      };
      const service = (s: ResultStore) => oneSlotService(engine, dataDir, s);
      // The replay records live in the database every process shares.
      const db = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'loom.sqlite') });
      await migrateToLatest(db);
      const owner = await createUsersRepository(db.kysely, now).create({
        account: 'replays',
        international_code: '86',
        display_name: 'Replays',
        user_level: 'DESIGNER',
        password_hash: null,
      });
      const first = service(open());
      const replays = (s: UpscaleService) => new DurableReplays(db.kysely, now, (o) => s.store.has(o.resultId));
      const image = { filename: 'fabric.png', data: await makeImage('png') };
      const params: UpscaleParams = { modelName: 'up2x-conservative', tileMode: 0, cacheMode: 0, alpha: 1, format: 'png' };
      const live = () => new AbortController().signal;

      // Killed after the record was written, before the result was published.
      let lost = '';
      await expect(
        new IdempotentResults(3600, now, REPLAY_GRACE_MS, replays(first)).run('k', owner.id, 'fp', live(), (signal, record) =>
          first.upscale(image, params, {
            signal,
            beforePublish: async (outcome) => {
              await record(outcome);
              lost = outcome.resultId;
              throw new Error('killed');
            },
          }),
        ),
      ).rejects.toThrow('killed');
      expect(await first.store.has(lost)).toBe(false);

      // Another process takes the resend: the record's result is not there, so it runs once more and publishes.
      const second = service(open());
      const resend = (s: UpscaleService) =>
        new IdempotentResults(3600, now, REPLAY_GRACE_MS, replays(s)).run('k', owner.id, 'fp', live(), (signal, record) =>
          s.upscale(image, params, { signal, beforePublish: record }),
        );
      const answer = await resend(second);
      expect(answer.replayed).toBe(false);
      expect(runs).toBe(2);
      expect(await first.store.has(answer.outcome.resultId)).toBe(true);
      // And after publishing, the next resend is answered from the record, on a third process.
      const third = service(open());
      expect(await resend(third)).toMatchObject({ replayed: true, outcome: { resultId: answer.outcome.resultId } });
      expect(runs).toBe(2);
      await Promise.all([first.close(), second.close(), third.close()]);
      await db.close();
    });

    it('the service lets go of a result once it is published, refused or cancelled, and what it published is whole', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-result-free-'));
      dirs.push(dataDir);
      const given: Buffer[] = [];
      /** clients that leave while their result is being encoded */
      const leaving: AbortController[] = [];
      const engine: UpscaleEnginePort = {
        listModels: async () => [{ name: 'up2x-conservative', scale: 2, denoise: 'conservative' }],
        upscale: async (input) => {
          const data = Buffer.alloc(64 * 1024);
          input.copy(data);
          given.push(data);
          leaving.shift()?.abort();
          return { data, format: 'png', width: 2, height: 2, scale: 2, durationMs: 1 };
        },
        close: async () => undefined,
      };
      const service = oneSlotService(engine, dataDir, open());
      const image = { filename: 'fabric.png', data: await makeImage('png') };
      const params: UpscaleParams = { modelName: 'up2x-conservative', tileMode: 0, cacheMode: 0, alpha: 1, format: 'png' };
      const signal = new AbortController().signal;
      const expected = Buffer.alloc(64 * 1024);
      image.data.copy(expected);

      const outcome = await service.upscale(image, params, { signal });
      // Its memory is released at once (a 4 MP 4x result is 179 MB), not at the next collection.
      expect(given[0]!.byteLength).toBe(0);
      expect(await drain(await other.open(outcome.resultId, outcome.filename))).toEqual(expected);
      // Also when it is never published.
      await expect(
        service.upscale(image, params, { signal, beforePublish: () => Promise.reject(new Error('killed')) }),
      ).rejects.toThrow('killed');
      expect(given[1]!.byteLength).toBe(0);
      // And when its client left as it was encoded: nothing is stored, nothing kept.
      const gone = new AbortController();
      leaving.push(gone);
      await expect(service.upscale(image, params, { signal: gone.signal })).rejects.toThrow('cancelled');
      expect(given[2]!.byteLength).toBe(0);
      await service.close();
    });
  });
}
