import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_CODE_ATTEMPTS,
  createVerificationCodes,
  phoneKey,
} from '../../server/modules/auth/verification-codes.js';
import { GRACE_SUCCESSORS_MAX, ROTATION_GRACE_SECONDS } from '../../server/modules/auth/refresh-tokens.js';
import { databaseKinds } from './helpers/databases.js';
import { lastCodeFor, readOutbox } from './helpers/outbox.js';
import { ADMIN, createTestApp, type TestApp } from './helpers/test-app.js';

interface Grant {
  token: string;
  refresh_token: string;
  expires_in: number;
  user: Record<string, unknown>;
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`sign-in on ${db.kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(db.kind, { ACCESS_TOKEN_TTL_SECONDS: '60' });
    });
    afterAll(() => t?.close());

    describe('account and password', () => {
      it('signs in, answers token, refresh token and the user without its hash', async () => {
        const r = await t.call<Grant>('POST', '/api/auth/login-password', { body: ADMIN });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ success: true, code: 200 });
        expect(r.body.data.token.split('.')).toHaveLength(3);
        expect(r.body.data.refresh_token.length).toBeGreaterThan(30);
        expect(r.body.data.user).toMatchObject({
          account: ADMIN.account,
          user_level: 'ADMIN',
          disabled: false,
        });
        expect(r.body.data.user).not.toHaveProperty('password_hash');
        const profile = await t.call('GET', '/api/user/profile', { token: r.body.data.token });
        expect(profile.status).toBe(200);
        expect(profile.body.data).toMatchObject({ account: ADMIN.account });
      });

      it('stores passwords as argon2id hashes', async () => {
        const row = await t.app.db.kysely
          .selectFrom('users')
          .select('password_hash')
          .where('account', '=', ADMIN.account)
          .executeTakeFirstOrThrow();
        expect(row.password_hash).toMatch(/^\$argon2id\$/);
      });

      it('answers a wrong password and an unknown account alike', async () => {
        const wrong = await t.call('POST', '/api/auth/login-password', {
          body: { account: ADMIN.account, password: 'nope-nope' },
        });
        const unknown = await t.call('POST', '/api/auth/login-password', {
          body: { account: 'nobody-here', password: 'nope-nope' },
        });
        expect(wrong.status).toBe(400);
        expect(unknown.status).toBe(400);
        expect(wrong.body).toEqual(unknown.body);
        expect(wrong.body.message).toBe('Login failed, check your credentials');
      });

      it('refuses a disabled user, and its live token stops working at once', async () => {
        const user = await t.createUser('DESIGNER');
        expect((await t.call('GET', '/api/user/profile', { token: user.token })).status).toBe(200);
        const disable = await t.call('PUT', `/api/users/${user.id}/`, {
          token: await t.adminToken(),
          body: { disabled: true },
        });
        expect(disable.status).toBe(200);
        const after = await t.call('GET', '/api/user/profile', { token: user.token });
        expect(after.status).toBe(401);
        expect(after.body).toMatchObject({
          success: false,
          code: 401,
          message: 'Login expired, please log in again',
        });
        const login = await t.call('POST', '/api/auth/login-password', {
          body: { account: user.account, password: user.password },
        });
        expect(login.status).toBe(403);
        expect(login.body.success).toBe(false);
      });

      it('rejects a missing field with per-field details', async () => {
        const r = await t.call<{ errors: { field: string }[] }>('POST', '/api/auth/login-password', {
          body: { account: '  ' },
        });
        expect(r.status).toBe(400);
        expect(r.body.data.errors.map((e) => e.field).sort()).toEqual(['account', 'password']);
      });

      it('answers in the language the PWA asks for, Chinese by default', async () => {
        const zh = await t.call('POST', '/api/auth/login-password', {
          body: { account: 'x', password: 'y' },
          headers: { 'accept-language': '' },
        });
        expect(zh.body.message).toBe('登录失败，请检查账号和密码');
        const vi = await t.call('POST', '/api/auth/login-password', {
          body: { account: 'x', password: 'y' },
          headers: { 'accept-language': 'vi-VN,vi;q=0.9' },
        });
        expect(vi.body.message).toBe('Đăng nhập thất bại, vui lòng kiểm tra thông tin đăng nhập');
      });
    });

    describe('SmartLink (WeChat account)', () => {
      it('signs in with wechat_account and password, and refuses a wrong one', async () => {
        const user = await t.createUser('GENERAL', { wechat_account: `wx-${Date.now()}` });
        const me = await t.call<{ wechat_account: string }>('GET', '/api/user/profile', {
          token: user.token,
        });
        const ok = await t.call<Grant>('POST', '/api/auth/login-wechat', {
          body: { wechat_account: me.body.data.wechat_account, password: user.password },
        });
        expect(ok.status).toBe(200);
        expect(ok.body.data.user.user_level).toBe('GENERAL');
        const bad = await t.call('POST', '/api/auth/login-wechat', {
          body: { wechat_account: me.body.data.wechat_account, password: 'wrong-pass' },
        });
        expect(bad.status).toBe(400);
      });
    });

    describe('phone and verification code', () => {
      let phone = 13_800_000_000;
      const nextPhone = () => String((phone += 1));

      it('sends a 6-digit code to the outbox and signs in with it once', async () => {
        const p = nextPhone();
        await t.createUser('DESIGNER', { phone: p });
        const sent = await t.call('POST', '/api/auth/send-code', {
          body: { phone: p, international_code: '86' },
        });
        expect(sent.status).toBe(200);
        expect(sent.body.data).toEqual({ expires_in: 300, resend_after: 60 });
        const code = lastCodeFor(t.dataDir, p);
        expect(code).toMatch(/^\d{6}$/);
        const login = await t.call<Grant>('POST', '/api/auth/login', { body: { phone: p, code } });
        expect(login.status).toBe(200);
        expect(login.body.data.user.phone).toBe(p);
        const again = await t.call('POST', '/api/auth/login', { body: { phone: p, code } });
        expect(again.status).toBe(400);
      });

      it('keeps the code hashed in the database', async () => {
        const rows = await t.app.db.kysely.selectFrom('verification_codes').select('code_hash').execute();
        const codes = new Set(readOutbox(t.dataDir).map((e) => e.code));
        expect(rows.length).toBeGreaterThan(0);
        for (const r of rows) expect(codes.has(r.code_hash)).toBe(false);
      });

      it('refuses a wrong code, and five wrong tries kill the code', async () => {
        const p = nextPhone();
        await t.createUser('DESIGNER', { phone: p });
        await t.call('POST', '/api/auth/send-code', { body: { phone: p } });
        const code = lastCodeFor(t.dataDir, p)!;
        const wrong = code === '000000' ? '111111' : '000000';
        for (let i = 0; i < 5; i += 1) {
          const r = await t.call('POST', '/api/auth/login', { body: { phone: p, code: wrong } });
          expect(r.status).toBe(400);
          expect(r.body.message).toBe('The verification code is wrong or has expired');
        }
        const right = await t.call('POST', '/api/auth/login', { body: { phone: p, code } });
        expect(right.status).toBe(400);
      });

      it('counts parallel wrong guesses one by one: never more than five are compared', async () => {
        const codes = createVerificationCodes(t.app.db.kysely, t.config.jwtSecret, () => new Date());
        const key = phoneKey('86', nextPhone());
        const issued = await codes.issue(key);
        if (!issued.ok) throw new Error('code not issued');
        const wrong = issued.code === '000000' ? '111111' : '000000';
        const results = await Promise.all(Array.from({ length: 12 }, () => codes.consume(key, wrong)));
        expect(results.every((ok) => !ok)).toBe(true);
        const row = await t.app.db.kysely
          .selectFrom('verification_codes')
          .select(['attempts', 'consumed_at'])
          .where('id', '=', issued.id)
          .executeTakeFirstOrThrow();
        expect(row.attempts).toBe(MAX_CODE_ATTEMPTS);
        expect(row.consumed_at).not.toBeNull();
        expect(await codes.consume(key, issued.code)).toBe(false);
      });

      it('lets the right code through once even when it races wrong guesses', async () => {
        const codes = createVerificationCodes(t.app.db.kysely, t.config.jwtSecret, () => new Date());
        // a race goes one way or another: twenty of them, each on a code of its own
        for (let round = 0; round < 20; round++) {
          const key = phoneKey('86', nextPhone());
          const issued = await codes.issue(key);
          if (!issued.ok) throw new Error('code not issued');
          const wrong = issued.code === '000000' ? '111111' : '000000';
          const guesses = [wrong, issued.code, wrong, issued.code, wrong];
          const results = await Promise.all(guesses.map((g) => codes.consume(key, g)));
          expect(results.filter(Boolean), `round ${round}`).toHaveLength(1);
        }
      });

      it('refuses an expired code', async () => {
        const p = nextPhone();
        await t.createUser('DESIGNER', { phone: p });
        await t.call('POST', '/api/auth/send-code', { body: { phone: p } });
        const code = lastCodeFor(t.dataDir, p)!;
        t.advance(301);
        const r = await t.call('POST', '/api/auth/login', { body: { phone: p, code } });
        expect(r.status).toBe(400);
      });

      it('refuses a resend within 60 s with Retry-After, and allows it after', async () => {
        const p = nextPhone();
        await t.createUser('DESIGNER', { phone: p });
        expect((await t.call('POST', '/api/auth/send-code', { body: { phone: p } })).status).toBe(200);
        t.advance(20);
        const soon = await t.call('POST', '/api/auth/send-code', { body: { phone: p } });
        expect(soon.status).toBe(429);
        expect(Number(soon.response.headers['retry-after'])).toBeGreaterThanOrEqual(39);
        expect(Number(soon.response.headers['retry-after'])).toBeLessThanOrEqual(40);
        expect(soon.body.message).toMatch(/wait 4\d s/);
        t.advance(41);
        const later = await t.call('POST', '/api/auth/send-code', { body: { phone: p } });
        expect(later.status).toBe(200);
        // Only the newest code works.
        const codes = readOutbox(t.dataDir).filter((e) => e.phone === p);
        expect(codes).toHaveLength(2);
        const old = await t.call('POST', '/api/auth/login', { body: { phone: p, code: codes[0]!.code } });
        if (codes[0]!.code !== codes[1]!.code) expect(old.status).toBe(400);
        const fresh = await t.call('POST', '/api/auth/login', { body: { phone: p, code: codes[1]!.code } });
        expect(fresh.status).toBe(200);
      });

      it('answers an unknown phone exactly like a known one, but sends nothing', async () => {
        const p = nextPhone();
        const r = await t.call('POST', '/api/auth/send-code', { body: { phone: p } });
        expect(r.status).toBe(200);
        expect(r.body.data).toEqual({ expires_in: 300, resend_after: 60 });
        expect(lastCodeFor(t.dataDir, p)).toBeUndefined();
        const login = await t.call('POST', '/api/auth/login', { body: { phone: p, code: '123456' } });
        expect(login.status).toBe(400);
      });

      it('requires a phone to send a code and a 6-digit code to sign in', async () => {
        expect((await t.call('POST', '/api/auth/send-code', { body: {} })).status).toBe(400);
        expect(
          (await t.call('POST', '/api/auth/login', { body: { phone: '13800000000', code: '12345' } })).status,
        ).toBe(400);
      });
    });

    describe('tokens', () => {
      it('rotates refresh tokens, and a reused one revokes the whole family', async () => {
        const first = await t.login(ADMIN.account, ADMIN.password);
        const second = await t.call<Grant>('POST', '/api/user/refresh/', {
          body: { refresh_token: first.refresh_token },
        });
        expect(second.status).toBe(200);
        expect(second.body.data.refresh_token).not.toBe(first.refresh_token);
        expect((await t.call('GET', '/api/user/profile', { token: second.body.data.token })).status).toBe(
          200,
        );
        // The first token again once the grace period is over: a leak. Both it and its successor die.
        t.advance(ROTATION_GRACE_SECONDS + 1);
        const reuse = await t.call('POST', '/api/user/refresh/', {
          body: { refresh_token: first.refresh_token },
        });
        expect(reuse.status).toBe(401);
        const successor = await t.call('POST', '/api/user/refresh/', {
          body: { refresh_token: second.body.data.refresh_token },
        });
        expect(successor.status).toBe(401);
      });

      it('gives a token presented again within the grace period another successor, as two tabs refreshing at once do', async () => {
        const first = await t.login(ADMIN.account, ADMIN.password);
        const refresh = () => t.call<Grant>('POST', '/api/user/refresh/', { body: { refresh_token: first.refresh_token } });
        const [a, b] = await Promise.all([refresh(), refresh()]);
        expect([a.status, b.status]).toEqual([200, 200]);
        expect(a.body.data.refresh_token).not.toBe(b.body.data.refresh_token);
        // An answer lost on the way: the page asks again with the old token a little later.
        t.advance(ROTATION_GRACE_SECONDS - 5);
        const again = await refresh();
        expect(again.status).toBe(200);
        for (const grant of [a, b, again]) {
          const next = await t.call('POST', '/api/user/refresh/', { body: { refresh_token: grant.body.data.refresh_token } });
          expect(next.status).toBe(200);
        }
      });

      it('treats a token replayed past the grace period\'s bound as leaked, even within the 30 s', async () => {
        const first = await t.login(ADMIN.account, ADMIN.password);
        const replay = () => t.call<Grant>('POST', '/api/user/refresh/', { body: { refresh_token: first.refresh_token } });
        const granted: Grant[] = [];
        for (let i = 0; i < GRACE_SUCCESSORS_MAX; i++) {
          const r = await replay();
          expect(r.status).toBe(200);
          granted.push(r.body.data);
        }
        expect((await replay()).status).toBe(401);
        // The whole family went with it.
        const successor = await t.call('POST', '/api/user/refresh/', { body: { refresh_token: granted[0]!.refresh_token } });
        expect(successor.status).toBe(401);
      });

      it("counts the successors' own successors toward the bound of a replayed token", async () => {
        const first = await t.login(ADMIN.account, ADMIN.password);
        const refresh = (token: string) => t.call<Grant>('POST', '/api/user/refresh/', { body: { refresh_token: token } });
        // A tab rotates the family on, seven tokens deep, within the first token's 30 s.
        let latest = first.refresh_token;
        for (let i = 0; i < GRACE_SUCCESSORS_MAX - 1; i++) {
          const next = await refresh(latest);
          expect(next.status).toBe(200);
          latest = next.body.data.refresh_token;
        }
        expect((await refresh(first.refresh_token)).status).toBe(200);
        expect((await refresh(first.refresh_token)).status).toBe(401);
        expect((await refresh(latest)).status).toBe(401);
      });

      it('holds the bound when replays of one token arrive at once, and then leaves no token of its family alive', async () => {
        const first = await t.login(ADMIN.account, ADMIN.password);
        const refresh = (token: string) => t.call<Grant>('POST', '/api/user/refresh/', { body: { refresh_token: token } });
        const rotated = await refresh(first.refresh_token);
        expect(rotated.status).toBe(200);
        const replays = await Promise.all(Array.from({ length: 3 * GRACE_SUCCESSORS_MAX }, () => refresh(first.refresh_token)));
        const granted = replays.filter((r) => r.status === 200);
        expect(granted.length).toBeGreaterThan(0);
        expect(granted.length).toBeLessThanOrEqual(GRACE_SUCCESSORS_MAX - 1);
        expect(replays.filter((r) => r.status !== 200).map((r) => r.status)).toContain(401);
        // A successor granted while another replay was revoking the family is refused at its first use.
        for (const grant of [rotated, ...granted]) {
          expect((await refresh(grant.body.data.refresh_token)).status).toBe(401);
        }
      });

      it('refuses a token within the grace period once its family was signed out', async () => {
        const first = await t.login(ADMIN.account, ADMIN.password);
        const second = await t.call<Grant>('POST', '/api/user/refresh/', { body: { refresh_token: first.refresh_token } });
        expect(second.status).toBe(200);
        const out = await t.call('POST', '/api/user/logout/', { body: { refresh_token: second.body.data.refresh_token } });
        expect(out.status).toBe(200);
        const reuse = await t.call('POST', '/api/user/refresh/', { body: { refresh_token: first.refresh_token } });
        expect(reuse.status).toBe(401);
      });

      it('refuses an expired access token and an expired refresh token', async () => {
        const s = await t.login(ADMIN.account, ADMIN.password);
        t.advance(61);
        const expired = await t.call('GET', '/api/user/profile', { token: s.token });
        expect(expired.status).toBe(401);
        const refreshed = await t.call<Grant>('POST', '/api/user/refresh/', {
          body: { refresh_token: s.refresh_token },
        });
        expect(refreshed.status).toBe(200);
        t.advance(31 * 86_400);
        const stale = await t.call('POST', '/api/user/refresh/', {
          body: { refresh_token: refreshed.body.data.refresh_token },
        });
        expect(stale.status).toBe(401);
      });

      it('refuses a forged token and a missing one', async () => {
        const s = await t.login(ADMIN.account, ADMIN.password);
        const [h, p] = s.token.split('.');
        expect((await t.call('GET', '/api/user/profile', { token: `${h}.${p}.forged` })).status).toBe(401);
        expect((await t.call('GET', '/api/user/profile')).status).toBe(401);
      });

      it('logout revokes the refresh token', async () => {
        const s = await t.login(ADMIN.account, ADMIN.password);
        const out = await t.call('POST', '/api/user/logout/', { body: { refresh_token: s.refresh_token } });
        expect(out.status).toBe(200);
        expect(
          (await t.call('POST', '/api/user/refresh/', { body: { refresh_token: s.refresh_token } })).status,
        ).toBe(401);
      });
    });

    describe('change password', () => {
      it('needs the current password, then signs every other session out', async () => {
        const user = await t.createUser('GENERAL');
        const other = await t.login(user.account, user.password);
        const wrong = await t.call('PUT', '/api/user/password/', {
          token: user.token,
          body: { old_password: 'not-it', new_password: 'brand-new-pass' },
        });
        expect(wrong.status).toBe(400);
        const short = await t.call('PUT', '/api/user/password/', {
          token: user.token,
          body: { old_password: user.password, new_password: '12345' },
        });
        expect(short.status).toBe(400);
        const ok = await t.call('PUT', '/api/user/password/', {
          token: user.token,
          body: { old_password: user.password, new_password: 'brand-new-pass' },
        });
        expect(ok.status).toBe(200);
        expect(
          (await t.call('POST', '/api/user/refresh/', { body: { refresh_token: other.refresh_token } }))
            .status,
        ).toBe(401);
        await expect(t.login(user.account, 'brand-new-pass')).resolves.toHaveProperty('token');
      });
    });
  });

  describe.skipIf(db.skip)(`throttling on ${db.kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(db.kind, { LOGIN_MAX_ATTEMPTS: '3', LOGIN_WINDOW_SECONDS: '120' });
    });
    afterAll(() => t?.close());

    it('throttles failures per account with Retry-After, whatever the password', async () => {
      for (let i = 0; i < 3; i += 1) {
        const r = await t.call('POST', '/api/auth/login-password', {
          body: { account: ADMIN.account, password: 'wrong-one' },
        });
        expect(r.status).toBe(400);
      }
      const blocked = await t.call('POST', '/api/auth/login-password', { body: ADMIN });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.response.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.body.message).toMatch(/Too many attempts/);
      t.advance(121);
      expect((await t.call('POST', '/api/auth/login-password', { body: ADMIN })).status).toBe(200);
    });

    it('throttles every attempt per IP, across accounts and methods', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 16; i += 1) {
        const r = await t.call('POST', '/api/auth/login-wechat', {
          body: { wechat_account: `wx-unknown-${i}`, password: 'whatever' },
          remoteAddress: '10.1.1.1',
        });
        statuses.push(r.status);
      }
      // 3 × 5 = 15 attempts per window per address, then 429.
      expect(statuses.slice(0, 15).every((s) => s === 400)).toBe(true);
      expect(statuses[15]).toBe(429);
      const code = await t.call('POST', '/api/auth/login', {
        body: { phone: '13900000000', code: '123456' },
        remoteAddress: '10.1.1.1',
      });
      expect(code.status).toBe(429);
    });

    it('throttles code sends per IP', async () => {
      t.advance(121);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push(
          (await t.call('POST', '/api/auth/send-code', { body: { phone: `1370000000${i}` } })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  });
}
