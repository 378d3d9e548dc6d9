import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

interface Prompt {
  id: number;
  type: 'image' | 'video' | 'moments';
  content: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

const key = (label: string) => `test-${label}-${Math.random().toString(36).slice(2, 10)}`;

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`prompt management on ${db.kind}`, () => {
    let t: TestApp;
    let admin: string;
    beforeAll(async () => {
      t = await createTestApp(db.kind);
      admin = await t.adminToken();
    });
    afterAll(() => t?.close());

    it('creates, lists, reads, updates and deletes one prompt per type', async () => {
      expect((await t.call<Prompt[]>('GET', '/api/prompts/', { token: admin })).body.data).toEqual([]);
      for (const type of ['moments', 'image', 'video'] as const) {
        const r = await t.call<Prompt>('POST', '/api/prompts/', { token: admin, body: { type, content: `${type} prompt` } });
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({ success: true, code: 201, message: 'Prompt saved' });
        expect(r.body.data).toMatchObject({ type, content: `${type} prompt`, created_by: 'root-admin', updated_by: 'root-admin' });
        expect(r.body.data.created_at).toBe(r.body.data.updated_at);
      }
      const list = await t.call<Prompt[]>('GET', '/api/prompts/', { token: admin });
      expect(list.body.data.map((p) => p.type)).toEqual(['image', 'video', 'moments']);

      t.advance(60);
      const editor = await t.createUser('ADMIN', { display_name: 'Second Admin' });
      const updated = await t.call<Prompt>('PUT', '/api/prompts/video/', { token: editor.token, body: { content: 'new video prompt' } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ content: 'new video prompt', created_by: 'root-admin', updated_by: 'Second Admin' });
      expect(updated.body.data.updated_at > updated.body.data.created_at).toBe(true);
      const read = await t.call<Prompt>('GET', '/api/prompts/video', { token: admin });
      expect(read.body.data.content).toBe('new video prompt');

      const deleted = await t.call('DELETE', '/api/prompts/video/', { token: admin });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ success: true, message: 'Prompt deleted', data: { type: 'video' } });
      const gone = await t.call('GET', '/api/prompts/video/', { token: admin });
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({ success: false, code: 404, message: 'There is no prompt of this type' });
      expect((await t.call('PUT', '/api/prompts/video/', { token: admin, body: { content: 'x' } })).status).toBe(404);
      expect((await t.call('DELETE', '/api/prompts/video/', { token: admin })).status).toBe(404);
    });

    it('refuses to create a type that exists, with a clear message', async () => {
      await t.call('POST', '/api/prompts/', { token: admin, body: { type: 'video', content: 'first' } });
      const again = await t.call('POST', '/api/prompts/', { token: admin, body: { type: 'video', content: 'second' } });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ success: false, code: 409, message: 'A prompt of this type already exists; edit it instead' });
      const zh = await t.call('POST', '/api/prompts/', {
        token: admin,
        headers: { 'accept-language': 'zh-CN' },
        body: { type: 'video', content: 'second' },
      });
      expect(zh.body.message).toBe('该类型的提示词已存在，请直接编辑');
      expect((await t.call<Prompt>('GET', '/api/prompts/video/', { token: admin })).body.data.content).toBe('first');
    });

    it('validates type and content: required, not blank, at most 1000 characters', async () => {
      const cases: [unknown, string[]][] = [
        [{ type: 'audio', content: 'x' }, ['type']],
        [{ type: 'image' }, ['content']],
        [{ type: 'image', content: '   \n ' }, ['content']],
        [{ type: 'image', content: 'a'.repeat(1001) }, ['content']],
      ];
      for (const [body, fields] of cases) {
        const r = await t.call<{ errors: { field: string; message: string }[] }>('POST', '/api/prompts/', { token: admin, body });
        expect(r.status).toBe(400);
        expect(r.body.data.errors.map((e) => e.field)).toEqual(fields);
      }
      const tooLong = await t.call<{ errors: { message: string }[] }>('PUT', '/api/prompts/video/', {
        token: admin,
        body: { content: 'b'.repeat(1001) },
      });
      expect(tooLong.body.data.errors[0]?.message).toMatch(/at most 1000/);
      expect((await t.call('GET', '/api/prompts/sound/', { token: admin })).status).toBe(400);
      const exact = await t.call<Prompt>('PUT', '/api/prompts/video/', { token: admin, body: { content: 'c'.repeat(1000) } });
      expect(exact.status).toBe(200);
      expect(exact.body.data.content).toHaveLength(1000);
    });

    it('applies a replayed mutation once (same Idempotency-Key answers the stored result)', async () => {
      await t.call('DELETE', '/api/prompts/moments/', { token: admin });
      const k = key('create');
      const first = await t.call<Prompt>('POST', '/api/prompts/', {
        token: admin,
        headers: { 'idempotency-key': k },
        body: { type: 'moments', content: 'copy text' },
      });
      expect(first.status).toBe(201);
      expect(first.response.headers['idempotent-replayed']).toBeUndefined();
      const replay = await t.call<Prompt>('POST', '/api/prompts/', {
        token: admin,
        headers: { 'idempotency-key': k },
        body: { type: 'moments', content: 'copy text' },
      });
      // Without the key this would be a 409 "already exists"; with it the client sees its own success.
      expect(replay.status).toBe(201);
      expect(replay.response.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.data).toEqual(first.body.data);

      // An update replayed after a later edit must not overwrite that edit.
      const ku = key('update');
      const edit = () =>
        t.call<Prompt>('PUT', '/api/prompts/moments/', { token: admin, headers: { 'idempotency-key': ku }, body: { content: 'offline edit' } });
      expect((await edit()).status).toBe(200);
      await t.call('PUT', '/api/prompts/moments/', { token: admin, body: { content: 'later edit' } });
      const replayedEdit = await edit();
      expect(replayedEdit.status).toBe(200);
      expect(replayedEdit.body.data.content).toBe('offline edit');
      expect((await t.call<Prompt>('GET', '/api/prompts/moments/', { token: admin })).body.data.content).toBe('later edit');

      const kd = key('delete');
      const del = () => t.call('DELETE', '/api/prompts/moments/', { token: admin, headers: { 'idempotency-key': kd } });
      expect((await del()).status).toBe(200);
      const again = await del();
      expect(again.status).toBe(200);
      expect(again.response.headers['idempotent-replayed']).toBe('true');
    });

    it('applies concurrent duplicates once', async () => {
      await t.call('DELETE', '/api/prompts/image/', { token: admin });
      const k = key('race');
      const send = () =>
        t.call<Prompt>('POST', '/api/prompts/', { token: admin, headers: { 'idempotency-key': k }, body: { type: 'image', content: 'raced' } });
      const results = await Promise.all([send(), send(), send()]);
      expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
      expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
      expect(results.filter((r) => r.response.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    });

    it('does not record refused requests, refuses a reused key, keeps keys per user', async () => {
      const k = key('refused');
      const refused = await t.call('POST', '/api/prompts/', {
        token: admin,
        headers: { 'idempotency-key': k },
        body: { type: 'image', content: 'exists already' },
      });
      expect(refused.status).toBe(409);
      // Same key, same request after the type was freed: evaluated afresh and applied.
      await t.call('DELETE', '/api/prompts/image/', { token: admin });
      const retried = await t.call<Prompt>('POST', '/api/prompts/', {
        token: admin,
        headers: { 'idempotency-key': k },
        body: { type: 'image', content: 'exists already' },
      });
      expect(retried.status).toBe(201);
      expect(retried.response.headers['idempotent-replayed']).toBeUndefined();

      const mismatch = await t.call('PUT', '/api/prompts/image/', { token: admin, headers: { 'idempotency-key': k }, body: { content: 'other' } });
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.message).toMatch(/already used for a different request/);

      // Another administrator's identical key is a different key.
      const other = await t.createUser('ADMIN');
      const ko = key('per-user');
      const mine = await t.call<Prompt>('PUT', '/api/prompts/image/', { token: admin, headers: { 'idempotency-key': ko }, body: { content: 'mine' } });
      const theirs = await t.call<Prompt>('PUT', '/api/prompts/image/', { token: other.token, headers: { 'idempotency-key': ko }, body: { content: 'theirs' } });
      expect(mine.body.data.content).toBe('mine');
      expect(theirs.response.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body.data.content).toBe('theirs');

      const bad = await t.call<{ errors: { field: string }[] }>('PUT', '/api/prompts/image/', {
        token: admin,
        headers: { 'idempotency-key': 'short' },
        body: { content: 'x' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.data.errors[0]?.field).toBe('idempotency-key');
    });

    it('forgets keys after the retention period', async () => {
      const k = key('old');
      await t.call('PUT', '/api/prompts/image/', { token: admin, headers: { 'idempotency-key': k }, body: { content: 'v1' } });
      t.advance(31 * 86_400);
      admin = await t.adminToken();
      // Any later keyed write of the same user sweeps keys past retention.
      await t.call('PUT', '/api/prompts/image/', { token: admin, headers: { 'idempotency-key': key('sweep') }, body: { content: 'v2' } });
      const late = await t.call('PUT', '/api/prompts/image/', { token: admin, headers: { 'idempotency-key': k }, body: { content: 'v1' } });
      expect(late.response.headers['idempotent-replayed']).toBeUndefined();
    });

    it('lets every signed-in user read the prompts and only administrators change them', async () => {
      for (const level of ['DESIGNER', 'GENERAL'] as const) {
        const u = await t.createUser(level);
        // The video workflow reads the managed image prompt: no 403 in a normal flow.
        const list = await t.call<Prompt[]>('GET', '/api/prompts/', { token: u.token });
        expect(list.status).toBe(200);
        expect(list.body.data.find((p) => p.type === 'image')?.content).toBeTruthy();
        const one = await t.call<Prompt>('GET', '/api/prompts/image/', { token: u.token });
        expect(one.status).toBe(200);
        expect(one.body.data.content).toBe(list.body.data.find((p) => p.type === 'image')?.content);
        const calls = [
          t.call('POST', '/api/prompts/', { token: u.token, body: { type: 'video', content: 'x' } }),
          t.call('PUT', '/api/prompts/image/', { token: u.token, body: { content: 'x' } }),
          t.call('DELETE', '/api/prompts/image/', { token: u.token }),
        ];
        for (const r of await Promise.all(calls)) {
          expect(r.status).toBe(403);
          expect(r.body).toMatchObject({ success: false, code: 403, message: 'No permission' });
        }
      }
      const anonymous = await t.call('GET', '/api/prompts/');
      expect(anonymous.status).toBe(401);
      expect((await t.call<Prompt>('GET', '/api/prompts/image/', { token: admin })).body.data.content).not.toBe('x');
    });
  });
}
