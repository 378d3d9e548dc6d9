// Finished keyed upscales survive the process: a resend after a crash or a restart is answered from
// the record on disk instead of a second engine run; a cancel, another image under the same key, or
// an expired record runs afresh.
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DurableReplays } from '../../../server/modules/upscale/durable-replays.js';
import { IdempotentResults, REPLAY_GRACE_MS } from '../../../server/modules/upscale/idempotent-results.js';
import { createSignedUrls } from '../../../server/modules/upscale/signed-urls.js';
import { type UpscaleOutcome, UpscaleService } from '../../../server/modules/upscale/upscale-service.js';
import type { UpscaleEnginePort } from '../../../server/modules/upscale/upscale-engine-port.js';
import type { UpscaleParams } from '../../../server/modules/upscale/upscale-params.js';
import { makeImage } from './upscale-helpers.js';

const OUTCOME: UpscaleOutcome = {
  resultId: 'AAAAAAAAAAAAAAAAAAAAAA',
  url: '/r/1/a.png',
  filename: 'a.png',
  width: 2,
  height: 2,
  scale: 2,
  durationMs: 1,
};

function counter() {
  let runs = 0;
  return {
    work: async () => {
      runs += 1;
      return OUTCOME;
    },
    get runs() {
      return runs;
    },
  };
}

describe('durable upscale replays', () => {
  const live = () => new AbortController().signal;

  it('a process that starts after the answer still replays it, once per (user, key, image)', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'loom-replays-')), 'upscale-replays');
    let clock = Date.now();
    const now = () => new Date(clock);
    const before = new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(dir, now));
    const engine = counter();
    expect(await before.run('key-1', 7, 'fp-a', live(), engine.work)).toMatchObject({ replayed: false });
    expect(statSync(path.join(dir, readdirSync(dir)[0]!)).mode & 0o777).toBe(0o600);

    // The server was killed and started again: a fresh table over the same folder.
    const after = new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(dir, now));
    expect(await after.run('key-1', 7, 'fp-a', live(), engine.work)).toEqual({
      outcome: OUTCOME,
      replayed: true,
      keyed: true,
    });
    expect(engine.runs).toBe(1);
    // Another user's key, or the same key for another image, is new work.
    expect(await after.run('key-1', 8, 'fp-a', live(), engine.work)).toMatchObject({ replayed: false });
    expect(
      await new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(dir, now)).run(
        'key-1',
        7,
        'fp-b',
        live(),
        engine.work,
      ),
    ).toMatchObject({ replayed: false });
    expect(engine.runs).toBe(3);

    // Past half the link's life the record is not handed out any more, and the sweep removes it.
    clock += 1801_000;
    const later = new DurableReplays(dir, now);
    expect(await later.get(8, 'key-1')).toBeUndefined();
    writeFileSync(path.join(dir, 'half-written.json.123.tmp'), '{');
    expect(await later.sweep()).toBeGreaterThanOrEqual(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("the owner's cancel forgets the record on disk too, so a resend runs afresh", async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'loom-replays-')), 'upscale-replays');
    const now = () => new Date();
    const engine = counter();
    await new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(dir, now)).run(
      'k',
      1,
      'fp',
      live(),
      engine.work,
    );
    const restarted = new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(dir, now));
    expect(restarted.cancel('k', 1)).toBe('unknown');
    expect(await restarted.run('k', 1, 'fp', live(), engine.work)).toMatchObject({ replayed: false });
    expect(engine.runs).toBe(2);
  });

  it('a crash between the record and the published result runs the image once more, and leaves one result', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-replays-'));
    const now = () => new Date();
    let runs = 0;
    const engine: UpscaleEnginePort = {
      listModels: async () => [{ name: 'up2x-conservative', scale: 2, denoise: 'conservative' }],
      upscale: async (input) => {
        runs += 1;
        return { data: input, format: 'png', width: 2, height: 2, scale: 2, durationMs: 1 };
      },
      close: async () => undefined,
    };
    const service = new UpscaleService({
      engines: () => engine,
      concurrency: 1,
      maxQueue: 4,
      maxPixels: 1e6,
      maxInflightBytes: 1e7,
      resultTtlSeconds: 3600,
      dataDir,
      signedUrls: createSignedUrls(new Uint8Array(32), '/upscale-api/results'),
      now,
    });
    const replays = () =>
      new DurableReplays(path.join(dataDir, 'upscale-replays'), now, (o) => service.store.has(o.resultId));
    const image = { filename: 'fabric.png', data: await makeImage('png') };
    const params: UpscaleParams = {
      modelName: 'up2x-conservative',
      tileMode: 0,
      cacheMode: 0,
      alpha: 1,
      format: 'png',
    };
    const published = () => readdirSync(service.store.root);

    // Killed after the record was written, before the result was published.
    const killed = new IdempotentResults(3600, now, REPLAY_GRACE_MS, replays());
    await expect(
      killed.run('k', 1, 'fp', live(), (signal, record) =>
        service.upscale(image, params, {
          signal,
          beforePublish: async (outcome) => {
            await record(outcome);
            throw new Error('killed');
          },
        }),
      ),
    ).rejects.toThrow('killed');
    expect(readdirSync(path.join(dataDir, 'upscale-replays'))).toHaveLength(1);

    // After the restart the record's result is not there: the resend runs, and publishes one result.
    const restarted = new IdempotentResults(3600, now, REPLAY_GRACE_MS, replays());
    const resend = (table: IdempotentResults) =>
      table.run('k', 1, 'fp', live(), (signal, record) =>
        service.upscale(image, params, { signal, beforePublish: record }),
      );
    const second = await resend(restarted);
    expect(second.replayed).toBe(false);
    expect(runs).toBe(2);
    expect(published()).toEqual([second.outcome.resultId]);

    // Killed after publishing, before the reply: the next resend is answered from disk.
    const third = await resend(new IdempotentResults(3600, now, REPLAY_GRACE_MS, replays()));
    expect(third).toMatchObject({ replayed: true, outcome: { resultId: second.outcome.resultId } });
    expect(runs).toBe(2);
    expect(published()).toHaveLength(1);
  });
});
