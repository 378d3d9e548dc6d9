// Password and code guessing: tries are taken before any secret is compared, per account at one
// address with a wider per-account backstop, in the database so a restart keeps them.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { lastCodeFor } from './helpers/outbox.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

const MAX = 10;
const WINDOW = 600;

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`guessing throttles on ${db.kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(db.kind, {
        LOGIN_MAX_ATTEMPTS: String(MAX),
        LOGIN_WINDOW_SECONDS: String(WINDOW),
      });
    });
    afterAll(() => t?.close());
    afterEach(() => {
      vi.restoreAllMocks();
      // Each test starts in a fresh window.
      t.advance(WINDOW + 1);
    });

    const login = (account: string, password: string, address: string) =>
      t.call('POST', '/api/auth/login-password', { body: { account, password }, remoteAddress: address });

    /** Counts the passwords the server compares (known accounts and unknown ones alike). */
    function countVerifications(): () => number {
      const verify = vi.spyOn(t.app.services.hasher, 'verify');
      const verifyNothing = vi.spyOn(t.app.services.hasher, 'verifyNothing');
      return () => verify.mock.calls.length + verifyNothing.mock.calls.length;
    }

    it('compares no more than LOGIN_MAX_ATTEMPTS passwords of a parallel burst from one address', async () => {
      const user = await t.createUser('GENERAL');
      const verified = countVerifications();
      const results = await Promise.all(
        Array.from({ length: 50 }, () => login(user.account, 'wrong-wrong', '10.20.0.1')),
      );
      expect(verified()).toBe(MAX);
      expect(tally(results.map((r) => r.status))).toEqual({ 400: MAX, 429: 50 - MAX });
    });

    it('holds a parallel burst from many addresses to the per-account backstop', async () => {
      const user = await t.createUser('GENERAL');
      const verified = countVerifications();
      const results = await Promise.all(
        Array.from({ length: 8 * 20 }, (_, i) => login(user.account, 'wrong-wrong', `10.21.0.${i % 8}`)),
      );
      // 8 addresses could each fail MAX times; the account as a whole fails 5 × MAX at most.
      expect(verified()).toBe(5 * MAX);
      expect(results.filter((r) => r.status === 400)).toHaveLength(5 * MAX);
    });

    it('locks the guessing address out, while the owner signs in from another', async () => {
      const user = await t.createUser('GENERAL');
      for (let i = 0; i < MAX; i += 1)
        expect((await login(user.account, 'wrong-wrong', '10.22.0.66')).status).toBe(400);
      const locked = await login(user.account, user.password, '10.22.0.66');
      expect(locked.status).toBe(429);
      expect(Number(locked.response.headers['retry-after'])).toBeGreaterThan(WINDOW - 5);
      expect(locked.body.message).toMatch(/Too many attempts/);

      expect((await login(user.account, user.password, '10.22.0.7')).status).toBe(200);
      // The owner's success forgives nothing at the guesser's address.
      expect((await login(user.account, user.password, '10.22.0.66')).status).toBe(429);
    });

    it('locks every address once the account has failed 5 × LOGIN_MAX_ATTEMPTS times', async () => {
      const user = await t.createUser('GENERAL');
      for (let a = 0; a < 5; a += 1) {
        for (let i = 0; i < MAX; i += 1)
          expect((await login(user.account, 'wrong-wrong', `10.23.0.${a}`)).status).toBe(400);
      }
      expect((await login(user.account, 'wrong-wrong', '10.23.0.99')).status).toBe(429);
      expect((await login(user.account, user.password, '10.23.0.7')).status).toBe(429);
      t.advance(WINDOW + 1);
      expect((await login(user.account, user.password, '10.23.0.7')).status).toBe(200);
    });

    it('keeps its counts when the server restarts', async () => {
      const user = await t.createUser('GENERAL');
      for (let i = 0; i < MAX; i += 1)
        expect((await login(user.account, 'wrong-wrong', '10.24.0.66')).status).toBe(400);
      await t.restart();
      expect((await login(user.account, user.password, '10.24.0.66')).status).toBe(429);
      expect((await login(user.account, user.password, '10.24.0.7')).status).toBe(200);
    });

    it('throttles code sign-in per phone and address', async () => {
      const phone = '13812345678';
      await t.createUser('DESIGNER', { phone });
      const codeLogin = (code: string, address: string) =>
        t.call('POST', '/api/auth/login', { body: { phone, code }, remoteAddress: address });
      for (let i = 0; i < MAX; i += 1) expect((await codeLogin('000000', '10.25.0.66')).status).toBe(400);
      expect((await codeLogin('000000', '10.25.0.66')).status).toBe(429);

      const sent = await t.call('POST', '/api/auth/send-code', {
        body: { phone },
        remoteAddress: '10.25.0.7',
      });
      expect(sent.status).toBe(200);
      const code = lastCodeFor(t.dataDir, phone)!;
      expect((await codeLogin(code, '10.25.0.66')).status).toBe(429);
      expect((await codeLogin(code, '10.25.0.7')).status).toBe(200);
    });

    it('throttles old-password guesses per user with Retry-After', async () => {
      const user = await t.createUser('GENERAL');
      const change = (oldPassword: string) =>
        t.call('PUT', '/api/user/password/', {
          token: user.token,
          body: { old_password: oldPassword, new_password: 'brand-new-pass' },
        });
      const verified = countVerifications();
      const burst = await Promise.all(Array.from({ length: 30 }, () => change('not-the-password')));
      expect(verified()).toBe(MAX);
      expect(tally(burst.map((r) => r.status))).toEqual({ 400: MAX, 429: 30 - MAX });

      const blocked = await change(user.password);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.response.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.body.message).toMatch(/Too many attempts/);
      t.advance(WINDOW + 1);
      expect((await change(user.password)).status).toBe(200);
    });
  });
}
