import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUserCommand } from '../../server/cli/user-command.js';
import { databaseKinds } from './helpers/databases.js';
import { ADMIN, createTestApp, type TestApp } from './helpers/test-app.js';

interface UserView {
  id: number;
  account: string;
  user_level: string;
  disabled: boolean;
}

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`users and roles on ${db.kind}`, () => {
    let t: TestApp;
    let admin: string;
    beforeAll(async () => {
      t = await createTestApp(db.kind);
      admin = await t.adminToken();
    });
    afterAll(() => t?.close());

    /** An account as the server made it before account names had rules: straight into the table. */
    const legacyAccount = async (account: string, password = 'secret-1') =>
      t.app.services.users.create({
        account,
        wechat_account: null,
        phone: null,
        international_code: '86',
        display_name: account,
        user_level: 'GENERAL',
        password_hash: await t.app.services.hasher.hash(password),
      });

    it('creates, reads, updates and deletes an account', async () => {
      const created = await t.call<UserView>('POST', '/api/users/', {
        token: admin,
        body: {
          account: 'fabric-lead',
          password: 'secret-1',
          user_level: 'DESIGNER',
          display_name: 'Fabric Lead',
          phone: '13712345678',
        },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ success: true, code: 201 });
      const id = created.body.data.id;
      const read = await t.call<UserView>('GET', `/api/users/${id}/`, { token: admin });
      expect(read.body.data).toMatchObject({
        account: 'fabric-lead',
        user_level: 'DESIGNER',
        display_name: 'Fabric Lead',
      });
      // The trailing slash is optional, as clients differ.
      expect((await t.call('GET', `/api/users/${id}`, { token: admin })).status).toBe(200);
      const updated = await t.call<UserView>('PUT', `/api/users/${id}/`, {
        token: admin,
        body: { user_level: 'GENERAL', display_name: 'Video Lead' },
      });
      expect(updated.body.data).toMatchObject({ user_level: 'GENERAL', display_name: 'Video Lead' });
      expect((await t.call('DELETE', `/api/users/${id}/`, { token: admin })).status).toBe(200);
      expect((await t.call('GET', `/api/users/${id}/`, { token: admin })).status).toBe(404);
      expect((await t.call('DELETE', `/api/users/${id}/`, { token: admin })).status).toBe(404);
    });

    it('refuses a duplicate account, WeChat account or phone', async () => {
      const base = { password: 'secret-1', user_level: 'GENERAL' };
      expect(
        (
          await t.call('POST', '/api/users/', {
            token: admin,
            body: { ...base, account: 'dup-a', wechat_account: 'wx-dup', phone: '13800001111' },
          })
        ).status,
      ).toBe(201);
      for (const body of [
        { ...base, account: 'dup-a' },
        { ...base, account: 'dup-b', wechat_account: 'wx-dup' },
        { ...base, account: 'dup-c', phone: '13800001111' },
      ]) {
        const r = await t.call('POST', '/api/users/', { token: admin, body });
        expect(r.status).toBe(409);
        expect(r.body.message).toMatch(/already in use/);
      }
    });

    it('validates new accounts field by field', async () => {
      const r = await t.call<{ errors: { field: string }[] }>('POST', '/api/users/', {
        token: admin,
        body: { account: '', password: '123', user_level: 'OWNER' },
      });
      expect(r.status).toBe(400);
      expect(r.body.data.errors.map((e) => e.field).sort()).toEqual(['account', 'password', 'user_level']);
    });

    it('takes account names of letters and digits of any script, and . _ - @', async () => {
      for (const account of ['Zoë.Designer', '设计师01', 'สมศักดิ์', 'Nguyễn_Văn-2', 'ana@studio.example', '  padded  ']) {
        const r = await t.call<UserView>('POST', '/api/users/', {
          token: admin,
          body: { account, password: 'secret-1', user_level: 'GENERAL' },
        });
        expect(r.status, account).toBe(201);
        expect(r.body.data.account).toBe(account.trim());
        await expect(t.login(account.trim(), 'secret-1')).resolves.toHaveProperty('token');
      }
      // Stored in NFC: a decomposed ë arrives as the composed one.
      const decomposed = await t.call<UserView>('POST', '/api/users/', {
        token: admin,
        body: { account: 'Chloe\u0308', password: 'secret-1', user_level: 'GENERAL' },
      });
      expect(decomposed.body.data.account).toBe('Chlo\u00eb');
    });

    const badNames = [
      'nul\u0000name',
      'lone\ud800surrogate',
      'trail\udc00',
      '<script>alert(1)</script>',
      'two words',
      'tab\tname',
      'line\nbreak',
      'zero\u200bwidth',
      'rtl\u202eoverride',
      'emoji\u{1F600}',
      'quote"name',
      "apos'name",
      'rate_100%',
      '\u0308mark-first',
      'x'.repeat(101),
    ];

    it('refuses any other account name with a clear message in the user\'s language', async () => {
      for (const account of badNames) {
        const r = await t.call<{ errors: { field: string }[] }>('POST', '/api/users/', {
          token: admin,
          body: { account, password: 'secret-1', user_level: 'GENERAL' },
        });
        expect(r.status, JSON.stringify(account)).toBe(400);
        expect(r.body.success).toBe(false);
        expect(r.body.data.errors.map((e) => e.field)).toEqual(['account']);
      }
      // A NUL is refused at the edge, for every route alike, naming the field.
      const nul = await t.call<{ errors: { field: string }[] }>('POST', '/api/users/', {
        token: admin,
        body: { account: 'nul\u0000name', password: 'secret-1', user_level: 'GENERAL' },
      });
      expect(nul.body.message).toBe('Text may not contain the NUL character (U+0000)');
      expect(nul.body.data.errors.map((e) => e.field)).toEqual(['account']);
      const en = await t.call('POST', '/api/users/', {
        token: admin,
        body: { account: 'nul name', password: 'secret-1', user_level: 'GENERAL' },
      });
      expect(en.body.message).toBe(
        'An account name may contain only letters, digits and . _ - @ (no spaces or other symbols), 1 to 100 characters',
      );
      const zh = await t.call('POST', '/api/users/', {
        token: admin,
        headers: { 'accept-language': 'zh-CN' },
        body: { account: '<script>', password: 'secret-1', user_level: 'GENERAL' },
      });
      expect(zh.body.message).toBe('账号只能包含字母、数字和 . _ - @，不能有空格或其他符号，长度 1 到 100 个字符');
      const listed = await t.call<{ items: UserView[] }>('GET', '/api/users/?page_size=100', { token: admin });
      expect(listed.body.data.items.filter((u) => badNames.includes(u.account))).toEqual([]);
    });

    it('refuses the same names in the operator command', async () => {
      for (const account of badNames) {
        const out: string[] = [];
        const code = await runUserCommand(['create', account, '--password', 'cli-pass-1'], t.app.services, (l) => out.push(l));
        expect(code, JSON.stringify(account)).toBe(1);
        expect(out).toEqual([
          'error: An account name may contain only letters, digits and . _ - @ (no spaces or other symbols), 1 to 100 characters',
        ]);
      }
      const { items } = await t.app.services.usersAdmin.list(1, 100);
      expect(items.filter((u) => badNames.includes(u.account))).toEqual([]);
      expect(await runUserCommand(['create', 'Zoë.cli', '--password', 'cli-pass-1'], t.app.services, () => undefined)).toBe(0);
    });

    it('refuses control characters and broken Unicode in names, search and sign-in (no 500 on PostgreSQL)', async () => {
      for (const body of [
        { account: 'nul-display', display_name: 'a\u0000b', user_level: 'GENERAL' },
        { account: 'nul-wechat', wechat_account: 'wx\u0000', user_level: 'GENERAL' },
        { account: 'surrogate-display', display_name: 'a\ud800', user_level: 'GENERAL' },
      ]) {
        const r = await t.call<{ errors: { field: string }[] }>('POST', '/api/users/', { token: admin, body });
        expect(r.status).toBe(400);
        expect(r.body.data.errors.map((e) => e.field)).toEqual([Object.keys(body)[1]]);
      }
      expect((await t.call('GET', '/api/users/?search=%00', { token: admin })).status).toBe(400);
      for (const [url, body] of [
        ['/api/auth/login-password', { account: 'a\u0000b', password: 'secret-1' }],
        ['/api/auth/login-wechat', { wechat_account: 'a\u0000b', password: 'secret-1' }],
        ['/api/auth/login-password', { account: 'a\udc00', password: 'secret-1' }],
      ] as const) {
        expect((await t.call('POST', url, { body })).status).toBe(400);
      }
    });

    it('still signs in, and manages, accounts made before the rule', async () => {
      const old = await legacyAccount('old name!');
      await expect(t.login('old name!', 'secret-1')).resolves.toHaveProperty('token');
      const renamed = await t.call<UserView>('PUT', `/api/users/${old.id}/`, {
        token: admin,
        body: { display_name: 'Old Name' },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data.account).toBe('old name!');
      const cli = await runUserCommand(['reset-password', 'old name!', '--password', 'secret-2'], t.app.services, () => undefined);
      expect(cli).toBe(0);
      await expect(t.login('old name!', 'secret-2')).resolves.toHaveProperty('token');
    });

    it('lists with pagination and search', async () => {
      for (let i = 0; i < 5; i += 1) {
        await t.call('POST', '/api/users/', {
          token: admin,
          body: { account: `page-user-${i}`, password: 'secret-1', user_level: 'GENERAL' },
        });
      }
      const page = await t.call<{ items: UserView[]; total: number; page: number; page_size: number }>(
        'GET',
        '/api/users/?page=2&page_size=2&search=PAGE-user',
        { token: admin },
      );
      expect(page.status).toBe(200);
      expect(page.body.data.total).toBe(5);
      expect(page.body.data.items.map((u) => u.account)).toEqual(['page-user-2', 'page-user-3']);
      expect(page.body.data).toMatchObject({ page: 2, page_size: 2 });
    });

    it('searches for %, _ and ! as plain characters', async () => {
      // New names may not hold % or !; accounts made under the earlier rule keep theirs and still sign in.
      for (const account of ['rate_100%', 'rateX100Y', 'hey!you', 'heyyou']) await legacyAccount(account);
      const find = async (search: string) => {
        const r = await t.call<{ items: UserView[] }>(
          'GET',
          `/api/users/?search=${encodeURIComponent(search)}`,
          { token: admin },
        );
        expect(r.status).toBe(200);
        return r.body.data.items.map((u) => u.account);
      };
      expect(await find('_100%')).toEqual(['rate_100%']);
      expect(await find('e_1')).toEqual(['rate_100%']);
      expect(await find('y!y')).toEqual(['hey!you']);
      expect(await find('%')).toEqual(['rate_100%']);
    });

    it('lets nobody delete, disable or demote themselves', async () => {
      const me = await t.call<UserView>('GET', '/api/user/profile', { token: admin });
      const id = me.body.data.id;
      for (const [method, body] of [
        ['DELETE', undefined],
        ['PUT', { user_level: 'DESIGNER' }],
        ['PUT', { disabled: true }],
      ] as const) {
        const r = await t.call(method, `/api/users/${id}/`, { token: admin, body });
        expect(r.status).toBe(400);
        expect(r.body.message).toMatch(/your own account/);
      }
    });

    it('keeps the last administrator (operator command included)', async () => {
      const lines: string[] = [];
      const code = await runUserCommand(['disable', ADMIN.account], t.app.services, (l) => lines.push(l));
      expect(code).toBe(1);
      expect(lines.join('\n')).toMatch(/last administrator/);
      // With a second administrator, the first may be demoted by the second.
      const second = await t.createUser('ADMIN');
      const me = await t.call<UserView>('GET', '/api/user/profile', { token: admin });
      const demote = await t.call('PUT', `/api/users/${me.body.data.id}/`, {
        token: second.token,
        body: { user_level: 'DESIGNER' },
      });
      expect(demote.status).toBe(200);
      // Now the second is the last one and cannot be disabled from the command line.
      expect(await runUserCommand(['disable', second.account], t.app.services, () => undefined)).toBe(1);
      await t.app.services.usersAdmin.update(null, me.body.data.id, { user_level: 'ADMIN' });
    });

    it('runs the operator commands: create, list, reset-password, disable, enable', async () => {
      const out: string[] = [];
      const say = (l: string) => out.push(l);
      expect(
        await runUserCommand(
          ['create', 'cli-user', '--password', 'cli-pass-1', '--level', 'general'],
          t.app.services,
          say,
        ),
      ).toBe(0);
      await expect(t.login('cli-user', 'cli-pass-1')).resolves.toHaveProperty('token');
      expect(
        await runUserCommand(['reset-password', 'cli-user', '--password', 'cli-pass-2'], t.app.services, say),
      ).toBe(0);
      await expect(t.login('cli-user', 'cli-pass-2')).resolves.toHaveProperty('token');
      expect(await runUserCommand(['disable', 'cli-user'], t.app.services, say)).toBe(0);
      await expect(t.login('cli-user', 'cli-pass-2')).rejects.toThrow(/403/);
      expect(await runUserCommand(['enable', 'cli-user'], t.app.services, say)).toBe(0);
      expect(await runUserCommand(['list', '--search', 'cli-'], t.app.services, say)).toBe(0);
      expect(out.at(-1)).toBe('1 account(s)');
      expect(await runUserCommand(['explode'], t.app.services, say)).toBe(2);
      expect(await runUserCommand(['create', 'x', '--password', '1'], t.app.services, say)).toBe(2);
    });

    it('enforces roles on the server: only ADMIN manages users, everyone reads their profile', async () => {
      for (const level of ['DESIGNER', 'GENERAL'] as const) {
        const u = await t.createUser(level);
        const list = await t.call('GET', '/api/users/', { token: u.token });
        expect(list.status).toBe(403);
        expect(list.body).toMatchObject({ success: false, code: 403, message: 'No permission' });
        expect(
          (
            await t.call('POST', '/api/users/', {
              token: u.token,
              body: { account: 'x', user_level: 'ADMIN' },
            })
          ).status,
        ).toBe(403);
        expect((await t.call('GET', '/api/user/profile', { token: u.token })).status).toBe(200);
      }
      expect((await t.call('GET', '/api/users/')).status).toBe(401);
    });
  });
}
