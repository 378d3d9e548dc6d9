// A workshop call whose answer was lost is answered from its Idempotency-Key even when the user's
// queue has filled up since: the cap on waiting jobs refuses new work, not a resend of work it let in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeProvider, type FakeProvider } from '../generation/helpers/fake-providers.js';
import { FAST_RUNNER, createGenerationApp, until, type GenerationTestApp } from '../generation/helpers/generation-app.js';

interface Item {
  id: number;
  status: string;
}

const V1 = { 'x-api-version': 'v1' };

describe('the workshop with a full queue', () => {
  let fake: FakeProvider;
  let t: GenerationTestApp;
  let admin: string;
  const item = (id: number) => t.call<Item>('GET', `/third-api/workshop/items/${id}`, { token: admin, headers: V1 });
  const create = (text: string, key?: string) =>
    t.call<Item>('POST', '/third-api/workshop/items', {
      token: admin,
      headers: { ...V1, ...(key ? { 'idempotency-key': key } : {}) },
      body: { text },
    });

  beforeAll(async () => {
    fake = createFakeProvider();
    // One slot for the provider and one waiting job per user: a running item and one queued fill it.
    t = await createGenerationApp(
      'sqlite',
      fake.providers(),
      { ...FAST_RUNNER, maxRunMs: 60_000, budgetMs: 120_000, fairShare: { maxWaitingPerUser: 1 } },
      undefined,
      { env: { JOB_CONCURRENCY: '*=1' } },
    );
    admin = await t.adminToken();
  });
  afterAll(async () => {
    fake.switches.enhancerGate = false;
    await t?.close();
  });

  it('answers a resent retry and a resent item from their keys, and refuses only new work', async () => {
    fake.switches.enhancer = 'quota';
    const failed = await create('retried at a full queue');
    await until(() => item(failed.body.data.id), (r) => r.body.data.status === 'error');
    fake.switches.enhancer = 'none';
    fake.switches.enhancerGate = true;
    const running = await create('holds the one slot');
    await until(() => item(running.body.data.id), (r) => r.body.data.status === 'processing');

    // The retry takes the one waiting place; its answer is lost and it is sent again.
    const retry = () =>
      t.call<Item>('POST', `/third-api/workshop/items/${failed.body.data.id}/retry`, {
        token: admin,
        headers: { ...V1, 'idempotency-key': 'full-queue-retry-0001' },
      });
    expect((await retry()).status).toBe(200);
    const resent = await retry();
    expect(resent.status).toBe(200);
    expect(resent.response.headers['idempotent-replayed']).toBe('true');
    expect(resent.body.data.status).toBe('pending');

    // New work is refused while the queue is full.
    expect((await create('one too many')).status).toBe(429);
    fake.switches.enhancerGate = false;
    await until(() => item(failed.body.data.id), (r) => r.body.data.status === 'completed');

    // An item let in, whose answer is lost; by the resend the queue is full again.
    const made = await create('let in', 'full-queue-item-0001');
    expect(made.status).toBe(201);
    await until(() => item(made.body.data.id), (r) => r.body.data.status === 'completed');
    fake.switches.enhancerGate = true;
    const blocker = await create('holds the slot again');
    await until(() => item(blocker.body.data.id), (r) => r.body.data.status === 'processing');
    expect((await create('takes the waiting place')).status).toBe(201);
    expect((await create('one too many again')).status).toBe(429);
    const again = await create('let in', 'full-queue-item-0001');
    expect(again.status).toBe(201);
    expect(again.response.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(made.body.data.id);
    fake.switches.enhancerGate = false;
  });
});
