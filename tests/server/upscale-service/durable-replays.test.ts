// Finished keyed upscales outlive the process and reach every replica: a resend after a crash, a
// restart, or to another replica on the same database is answered from the record in the database
// instead of a second engine run; a cancel, another image under the same key, or an expired record
// runs afresh.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { createUsersRepository } from '../../../server/modules/users/users-repository.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { DurableReplays } from '../../../server/modules/upscale/durable-replays.js';
import { IdempotentResults, REPLAY_GRACE_MS } from '../../../server/modules/upscale/idempotent-results.js';
import { buildUpscaleApp } from '../../../server/modules/upscale/upscale-app.js';
import type { UpscaleOutcome } from '../../../server/modules/upscale/upscale-service.js';
import type { UpscaleEnginePort } from '../../../server/modules/upscale/upscale-engine-port.js';
import type { UpscaleParams } from '../../../server/modules/upscale/upscale-params.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema, type DatabaseKind } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { makeImage, multipart, oneSlotService } from './upscale-helpers.js';

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

/** An engine that returns its input at once and counts its runs. */
function countingEngine(): UpscaleEnginePort & { runs: number } {
  return {
    runs: 0,
    listModels: async () => [{ name: 'up2x-conservative', scale: 2, denoise: 'conservative' }],
    async upscale(input) {
      this.runs += 1;
      return { data: Buffer.from(input), format: 'png', width: 2, height: 2, scale: 2, durationMs: 1 };
    },
    close: async () => undefined,
  };
}

/** One migrated database with two connections to it (a second process), and three users. */
interface ReplayDb {
  db: Db;
  /** Another connection to the same database, as a restarted process or another replica has. */
  other: Db;
  users: [number, number, number];
  rows(): Promise<number>;
  close(): Promise<void>;
}

async function openReplayDb(kind: DatabaseKind): Promise<ReplayDb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-replays-'));
  const schema = uniqueSchema();
  const open = () =>
    openDatabase(
      kind === 'postgres'
        ? { kind: 'postgres', url: POSTGRES_URL, schema }
        : { kind: 'sqlite', file: path.join(dir, 'loom.sqlite') },
    );
  const db = await open();
  await migrateToLatest(db);
  const other = await open();
  const accounts = createUsersRepository(db.kysely, () => new Date());
  const user = async (n: number) =>
    (
      await accounts.create({
        account: `replays-${n}`,
        international_code: '86',
        display_name: `Replays ${n}`,
        user_level: 'DESIGNER',
        password_hash: null,
      })
    ).id;
  const users: [number, number, number] = [await user(1), await user(2), await user(3)];
  return {
    db,
    other,
    users,
    rows: async () =>
      Number(
        (
          await db.kysely
            .withTables<{ upscale_replays: { key: string } }>()
            .selectFrom('upscale_replays')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    close: async () => {
      await other.close();
      await db.close();
      if (kind === 'postgres') await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each(databaseKinds)('durable upscale replays ($kind)', ({ kind, skip }) => {
  const live = () => new AbortController().signal;
  let r: ReplayDb;

  beforeAll(async () => {
    if (!skip) r = await openReplayDb(kind);
  });
  afterAll(() => r?.close());

  it.skipIf(skip)('a process that starts after the answer still replays it, once per (user, key, image)', async () => {
    const [u7, u8] = r.users;
    let clock = Date.now();
    const now = () => new Date(clock);
    const before = new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(r.db.kysely, now));
    const engine = counter();
    expect(await before.run('key-1', u7, 'fp-a', live(), engine.work)).toMatchObject({ replayed: false });

    // The server was killed and started again: a fresh table over another connection.
    const after = new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(r.other.kysely, now));
    expect(await after.run('key-1', u7, 'fp-a', live(), engine.work)).toEqual({
      outcome: OUTCOME,
      replayed: true,
      keyed: true,
    });
    expect(engine.runs).toBe(1);
    // Another user's key, or the same key for another image, is new work.
    expect(await after.run('key-1', u8, 'fp-a', live(), engine.work)).toMatchObject({ replayed: false });
    expect(
      await new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(r.other.kysely, now)).run(
        'key-1',
        u7,
        'fp-b',
        live(),
        engine.work,
      ),
    ).toMatchObject({ replayed: false });
    expect(engine.runs).toBe(3);
    // The key now stands for the other image: one record per (user, key).
    expect(await r.rows()).toBe(2);
    expect(await new DurableReplays(r.db.kysely, now).get(u7, 'key-1')).toMatchObject({ fingerprint: 'fp-b' });

    // Past half the link's life the record is not handed out any more, and the sweep removes it.
    clock += 1801_000;
    const later = new DurableReplays(r.db.kysely, now);
    expect(await later.get(u8, 'key-1')).toBeUndefined();
    expect(await later.sweep()).toBe(1);
    expect(await r.rows()).toBe(0);
  });

  it.skipIf(skip)("the owner's cancel forgets the record too, so a resend runs afresh", async () => {
    const [owner] = r.users;
    const now = () => new Date();
    const engine = counter();
    await new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(r.db.kysely, now)).run(
      'k',
      owner,
      'fp',
      live(),
      engine.work,
    );
    const restarted = new IdempotentResults(3600, now, REPLAY_GRACE_MS, new DurableReplays(r.other.kysely, now));
    // This process never held the job; the record it removed was a finished one.
    expect(await restarted.cancel('k', owner)).toBe('discarded');
    expect(await restarted.cancel('k', owner)).toBe('unknown');
    expect(await restarted.run('k', owner, 'fp', live(), engine.work)).toMatchObject({ replayed: false });
    expect(engine.runs).toBe(2);
    await restarted.cancel('k', owner);
  });

  it.skipIf(skip)('two replicas racing on one key write one record, and both answers stand', async () => {
    const [owner] = r.users;
    const now = () => new Date();
    const replicas = [new DurableReplays(r.db.kysely, now), new DurableReplays(r.other.kysely, now)];
    const expiresAt = Date.now() + 60_000;
    const ids = Array.from({ length: 8 }, (_, i) => `result-${i}`.padEnd(22, 'x'));
    await Promise.all(
      ids.map((resultId, i) =>
        replicas[i % 2]!.put(owner, 'raced', { fingerprint: 'fp', outcome: { ...OUTCOME, resultId }, expiresAt }),
      ),
    );
    expect(await r.rows()).toBe(1);
    const kept = await replicas[1]!.get(owner, 'raced');
    expect(ids).toContain(kept?.outcome.resultId);
    expect(await replicas[0]!.remove(owner, 'raced')).toBe(1);
  });

  it.skipIf(skip)('a crash between the record and the published result runs the image once more, and leaves one result', async () => {
    const [owner] = r.users;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-replays-'));
    const now = () => new Date();
    const engine = countingEngine();
    const service = oneSlotService(engine, dataDir);
    const replays = (db: Db) => new DurableReplays(db.kysely, now, (o) => service.store.has(o.resultId));
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
    const killed = new IdempotentResults(3600, now, REPLAY_GRACE_MS, replays(r.db));
    await expect(
      killed.run('crash', owner, 'fp', live(), (signal, record) =>
        service.upscale(image, params, {
          signal,
          beforePublish: async (outcome) => {
            await record(outcome);
            throw new Error('killed');
          },
        }),
      ),
    ).rejects.toThrow('killed');
    expect(await r.rows()).toBe(1);

    // After the restart the record's result is not there: the resend runs, and publishes one result.
    const restarted = new IdempotentResults(3600, now, REPLAY_GRACE_MS, replays(r.other));
    const resend = (table: IdempotentResults) =>
      table.run('crash', owner, 'fp', live(), (signal, record) =>
        service.upscale(image, params, { signal, beforePublish: record }),
      );
    const second = await resend(restarted);
    expect(second.replayed).toBe(false);
    expect(engine.runs).toBe(2);
    expect(published()).toEqual([second.outcome.resultId]);

    // Killed after publishing, before the reply: the next resend is answered from the database.
    const third = await resend(new IdempotentResults(3600, now, REPLAY_GRACE_MS, replays(r.db)));
    expect(third).toMatchObject({ replayed: true, outcome: { resultId: second.outcome.resultId } });
    expect(engine.runs).toBe(2);
    expect(published()).toHaveLength(1);
    expect(await r.rows()).toBe(1);
    await replays(r.db).remove(owner, 'crash');
    rmSync(dataDir, { recursive: true, force: true });
  });
});

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;

describe.skipIf(postgres.skip)('upscale replays across two replicas on one PostgreSQL', () => {
  let t: TestApp;
  let engine: ReturnType<typeof countingEngine>;
  let replicas: FastifyInstance[];
  let designer: string;
  let otherDir: string;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    designer = (await t.createUser('DESIGNER')).token;
    engine = countingEngine();
    // The replicas share the database and the stored results (a shared volume), nothing else on disk.
    otherDir = mkdtempSync(path.join(tmpdir(), 'loom-replica-'));
    mkdirSync(path.join(t.dataDir, 'upscale-results'), { recursive: true });
    symlinkSync(path.join(t.dataDir, 'upscale-results'), path.join(otherDir, 'upscale-results'));
    // Each replica opens its own connections to the database.
    replicas = [
      await buildUpscaleApp(t.config, { engines: () => engine }),
      await buildUpscaleApp({ ...t.config, dataDir: otherDir }, { engines: () => engine }),
    ];
  });
  afterAll(async () => {
    for (const app of replicas ?? []) await app.close();
    await t?.close();
    if (otherDir) rmSync(otherDir, { recursive: true, force: true });
  });

  const send = async (replica: number, key: string, image: Buffer) => {
    const body = multipart({ model_name: 'up2x-conservative' }, [{ filename: 'scan.png', data: image }]);
    const response = await replicas[replica]!.inject({
      method: 'POST',
      url: '/upscale/single',
      headers: { ...body.headers, authorization: `Bearer ${designer}`, 'idempotency-key': key },
      payload: body.payload,
    });
    return { status: response.statusCode, headers: response.headers, body: response.json<{ url: string }>() };
  };

  it('a resend to the second replica is answered from the first replica’s result, without a second run', async () => {
    const image = await makeImage('png', 8, 8);
    const first = await send(0, 'shared-key', image);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(engine.runs).toBe(1);

    const resend = await send(1, 'shared-key', image);
    expect(resend.status).toBe(200);
    expect(resend.headers['idempotent-replayed']).toBe('true');
    expect(engine.runs).toBe(1);
    // The same result, and its link works at the replica that replayed it.
    const link = (url: string) => new URL(url).pathname + new URL(url).search;
    expect(link(resend.body.url)).toBe(link(first.body.url));
    const download = await replicas[1]!.inject({ method: 'GET', url: link(resend.body.url) });
    expect(download.statusCode).toBe(200);

    // Another image under the same key is new work, on either replica.
    expect((await send(1, 'shared-key', await makeImage('png', 9, 9))).headers['idempotent-replayed']).toBeUndefined();
    expect(engine.runs).toBe(2);
  });

  it("the owner's cancel at one replica forgets the answer at the other too", async () => {
    const image = await makeImage('png', 10, 10);
    await send(0, 'cancelled-key', image);
    const runs = engine.runs;
    const cancel = await replicas[1]!.inject({
      method: 'DELETE',
      url: '/upscale/jobs/cancelled-key',
      headers: { authorization: `Bearer ${designer}` },
    });
    expect(cancel.json()).toMatchObject({ status: 'success', stopped: false });
    // The first replica still held the answer in memory: it asks the database before replaying it.
    const resend = await send(0, 'cancelled-key', image);
    expect(resend.headers['idempotent-replayed']).toBeUndefined();
    expect(engine.runs).toBe(runs + 1);
  });
});
