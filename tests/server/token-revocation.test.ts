// Access tokens end before their expiry when the user's token version moves: on logout, on a
// password change or reset, on disabling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

interface Grant {
  token: string;
  refresh_token: string;
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`access token revocation on ${db.kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(db.kind);
    });
    afterAll(() => t?.close());

    const profile = (token: string) => t.call('GET', '/api/user/profile', { token });

    it('refuses the access token after logout', async () => {
      const user = await t.createUser('GENERAL');
      const session = await t.login(user.account, user.password);
      expect((await profile(session.token)).status).toBe(200);
      const out = await t.call('POST', '/api/user/logout/', {
        body: { refresh_token: session.refresh_token },
      });
      expect(out.status).toBe(200);
      const after = await profile(session.token);
      expect(after.status).toBe(401);
      expect(after.body.message).toBe('Login expired, please log in again');
    });

    it("ends other devices' access tokens on logout, while their refresh tokens still work", async () => {
      const user = await t.createUser('GENERAL');
      const here = await t.login(user.account, user.password);
      const there = await t.login(user.account, user.password);
      await t.call('POST', '/api/user/logout/', { body: { refresh_token: here.refresh_token } });
      expect((await profile(there.token)).status).toBe(401);
      const renewed = await t.call<Grant>('POST', '/api/user/refresh/', {
        body: { refresh_token: there.refresh_token },
      });
      expect(renewed.status).toBe(200);
      expect((await profile(renewed.body.data.token)).status).toBe(200);
      // This device's family stays revoked.
      expect(
        (await t.call('POST', '/api/user/refresh/', { body: { refresh_token: here.refresh_token } })).status,
      ).toBe(401);
    });

    it('leaves access tokens alone when logout names no known refresh token', async () => {
      const user = await t.createUser('GENERAL');
      expect(
        (await t.call('POST', '/api/user/logout/', { body: { refresh_token: 'unknown-token' } })).status,
      ).toBe(200);
      expect((await t.call('POST', '/api/user/logout/', { body: {} })).status).toBe(200);
      expect((await profile(user.token)).status).toBe(200);
    });

    // A dead refresh token (rotated, already revoked, expired) must not be a way to sign its owner
    // out: the logout answers as usual and changes nothing.
    const logout = (refreshToken: string) =>
      t.call('POST', '/api/user/logout/', { body: { refresh_token: refreshToken } });
    const answerOf = (r: Awaited<ReturnType<typeof logout>>) => ({
      status: r.status,
      success: r.body.success,
      code: r.body.code,
      message: r.body.message,
      data: r.body.data,
    });

    it('changes nothing when logout carries a refresh token that was already rotated', async () => {
      const user = await t.createUser('GENERAL');
      const first = await t.login(user.account, user.password);
      const rotated = await t.call<Grant>('POST', '/api/user/refresh/', {
        body: { refresh_token: first.refresh_token },
      });
      expect(rotated.status).toBe(200);
      const current = rotated.body.data;
      const elsewhere = await t.login(user.account, user.password);

      const dead = await logout(first.refresh_token);
      expect((await profile(current.token)).status).toBe(200);
      expect((await profile(elsewhere.token)).status).toBe(200);
      // The live token of the same family still renews: logout is not a reuse signal.
      const renewed = await t.call<Grant>('POST', '/api/user/refresh/', {
        body: { refresh_token: current.refresh_token },
      });
      expect(renewed.status).toBe(200);

      // The answer is the one a real logout gets.
      const live = await logout(renewed.body.data.refresh_token);
      expect(answerOf(dead)).toEqual(answerOf(live));
      expect((await profile(renewed.body.data.token)).status).toBe(401);
    });

    it('changes nothing when logout repeats a refresh token that a logout already ended', async () => {
      const user = await t.createUser('GENERAL');
      const here = await t.login(user.account, user.password);
      const there = await t.login(user.account, user.password);
      expect((await logout(here.refresh_token)).status).toBe(200);
      const renewed = await t.call<Grant>('POST', '/api/user/refresh/', {
        body: { refresh_token: there.refresh_token },
      });
      expect(renewed.status).toBe(200);
      expect((await logout(here.refresh_token)).status).toBe(200);
      expect((await profile(renewed.body.data.token)).status).toBe(200);
    });

    it('changes nothing when logout carries an expired refresh token', async () => {
      const user = await t.createUser('GENERAL');
      const old = await t.login(user.account, user.password);
      t.advance(t.config.refreshTokenTtlSeconds + 60);
      const fresh = await t.login(user.account, user.password);
      expect((await logout(old.refresh_token)).status).toBe(200);
      expect((await profile(fresh.token)).status).toBe(200);
    });

    it('refuses every access token of the user after a password change', async () => {
      const user = await t.createUser('GENERAL');
      const other = await t.login(user.account, user.password);
      const changed = await t.call('PUT', '/api/user/password/', {
        token: user.token,
        body: { old_password: user.password, new_password: 'brand-new-pass' },
      });
      expect(changed.status).toBe(200);
      expect((await profile(user.token)).status).toBe(401);
      expect((await profile(other.token)).status).toBe(401);
      const fresh = await t.login(user.account, 'brand-new-pass');
      expect((await profile(fresh.token)).status).toBe(200);
    });

    it("refuses the user's access tokens after an administrator resets the password", async () => {
      const user = await t.createUser('DESIGNER');
      const reset = await t.call('PUT', `/api/users/${user.id}/`, {
        token: await t.adminToken(),
        body: { password: 'reset-by-admin' },
      });
      expect(reset.status).toBe(200);
      expect((await profile(user.token)).status).toBe(401);
      expect((await profile((await t.login(user.account, 'reset-by-admin')).token)).status).toBe(200);
    });

    it('keeps tokens from before a disable refused after the account is enabled again', async () => {
      const user = await t.createUser('DESIGNER');
      const admin = await t.adminToken();
      expect(
        (await t.call('PUT', `/api/users/${user.id}/`, { token: admin, body: { disabled: true } })).status,
      ).toBe(200);
      expect(
        (await t.call('PUT', `/api/users/${user.id}/`, { token: admin, body: { disabled: false } })).status,
      ).toBe(200);
      expect((await profile(user.token)).status).toBe(401);
      expect((await profile((await t.login(user.account, user.password)).token)).status).toBe(200);
    });

    it('keeps access tokens across a change that revokes nothing', async () => {
      const user = await t.createUser('DESIGNER');
      const renamed = await t.call('PUT', `/api/users/${user.id}/`, {
        token: await t.adminToken(),
        body: { display_name: 'Renamed' },
      });
      expect(renamed.status).toBe(200);
      expect((await profile(user.token)).status).toBe(200);
    });
  });
}
