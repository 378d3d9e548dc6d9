// Team mode's upload lock on PostgreSQL advisory locks: two lockers (two replicas) exclude each
// other, a waiter asks the holder to let go (NOTIFY) and waits, and a lock dies with its holder's
// connection. Then two API replicas on one schema and one data folder: an upload begun on one is
// continued on the other, and an append that stalls on one is stopped when the other is asked for
// the same upload, which then answers the offset the first had stored. PostgreSQL only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import {
  createAdvisoryLocker,
  type AdvisoryLocker,
} from '../../../server/modules/uploads/advisory-locker.js';
import { ensureAdmin } from '../../../server/modules/users/ensure-admin.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';
import { teamServerEnv, testServerEnv } from '../helpers/test-config.js';
import { makeImage } from '../upscale-service/upscale-helpers.js';
import { TusWire, sha256 } from './tus-wire.js';

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;
const ADMIN = { account: 'lock-admin', password: 'admin-secret' };

describe.skipIf(postgres.skip)('advisory locks for uploads', () => {
  const lockers: AdvisoryLocker[] = [];
  afterAll(async () => {
    await Promise.all(lockers.map((l) => l.close()));
  });
  const locker = (acquireTimeoutMs: number) => {
    const l = createAdvisoryLocker({ url: POSTGRES_URL, acquireTimeoutMs });
    lockers.push(l);
    return l;
  };

  it('excludes a second replica, which asks the holder to let go and waits for it', async () => {
    const id = `${Date.now().toString(16)}${'a'.repeat(20)}`;
    const one = locker(5000);
    const two = locker(5000);
    const held = one.newLock(id);
    let asked = 0;
    await held.lock(new AbortController().signal, () => {
      asked += 1;
      // The holder lets go a little later, as a cancelled request ends after its drain time.
      setTimeout(() => void held.unlock(), 300);
    });
    const started = Date.now();
    const waiter = two.newLock(id);
    await waiter.lock(new AbortController().signal, () => undefined);
    const waited = Date.now() - started;
    expect(asked).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(250);
    await waiter.unlock();
  });

  it("times out when the holder keeps it, and frees it when the holder's connection is gone", async () => {
    const id = `${Date.now().toString(16)}${'b'.repeat(20)}`;
    const holder = createAdvisoryLocker({ url: POSTGRES_URL });
    const other = locker(600);
    await holder.newLock(id).lock(new AbortController().signal, () => undefined);
    await expect(other.newLock(id).lock(new AbortController().signal, () => undefined)).rejects.toMatchObject(
      { status_code: 500 },
    );
    // A replica that dies closes its connections: PostgreSQL ends its locks.
    await holder.close();
    const lock = other.newLock(id);
    await lock.lock(new AbortController().signal, () => undefined);
    await lock.unlock();
  });
});

describe.skipIf(postgres.skip)("two API replicas continue each other's uploads", () => {
  const schema = uniqueSchema();
  const bossSchema = `${schema}_jobs`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-uploads-team-'));
  const apps: FastifyInstance[] = [];
  const wires: TusWire[] = [];
  let token: string;

  beforeAll(async () => {
    for (let i = 0; i < 2; i += 1) {
      const config = loadConfig({
        ...testServerEnv(dataDir, ADMIN),
        ...teamServerEnv('api', { url: POSTGRES_URL, schema, bossSchema }),
      });
      const app = await buildApp(config);
      if (i === 0) await ensureAdmin(config, app.services);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      wires.push(
        new TusWire(
          `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
          '/api/uploads/',
        ),
      );
      apps.push(app);
    }
    const login = await apps[0]!.inject({ method: 'POST', url: '/api/auth/login-password', payload: ADMIN });
    token = login.json<{ data: { token: string } }>().data.token;
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await dropSchema(schema);
    await dropSchema(bossSchema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const on = (wire: TusWire, url: string) => `${wire.base}${new URL(url).pathname}`;

  it('takes the rest of an upload on the replica that did not begin it', async () => {
    const [a, b] = wires as [TusWire, TusWire];
    const image = await makeImage('png', 120, 80);
    const url = await a.begin(token, {
      length: image.length,
      filename: 'fabric.png',
      filetype: 'image/png',
      purpose: 'upscale',
    });
    const half = Math.floor(image.length / 2);
    expect((await a.patch(url, token, 0, image.subarray(0, half))).status).toBe(204);
    expect(await b.offset(on(b, url), token)).toBe(half);
    const rest = await b.patch(on(b, url), token, half, image.subarray(half));
    expect(rest.status).toBe(204);
    const id = url.split('/').pop()!;
    expect(sha256(await apps[1]!.uploadReferences!.read(id))).toBe(sha256(image));
  });

  it('stops a stalled append on one replica when the other is asked for the upload', async () => {
    const [a, b] = wires as [TusWire, TusWire];
    const image = await makeImage('png', 160, 120);
    const url = await a.begin(token, {
      length: image.length,
      filename: 'stalled.png',
      filetype: 'image/png',
      purpose: 'upscale',
    });
    const sent = Math.floor(image.length / 3);
    // An append that sends a third and then goes silent, its connection open: it holds the lock.
    const stalled = a.openPatch(url, token, 0, image.length);
    stalled.on('error', () => undefined);
    const stalledAnswer = new Promise<number>((resolve) =>
      stalled.on('response', (r) => resolve(r.statusCode ?? 0)),
    );
    stalled.write(image.subarray(0, sent));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const started = Date.now();
    const offset = await b.offset(on(b, url), token);
    const waited = Date.now() - started;
    // The holder was asked, let its request drain, and gave the lock back well before the 30 s timeout.
    expect(offset).toBe(sent);
    expect(waited).toBeLessThan(15_000);
    expect(await stalledAnswer).toBeGreaterThanOrEqual(200);
    stalled.destroy();

    expect((await b.patch(on(b, url), token, sent, image.subarray(sent))).status).toBe(204);
    expect(sha256(await apps[0]!.uploadReferences!.read(url.split('/').pop()!))).toBe(sha256(image));
  });
});
