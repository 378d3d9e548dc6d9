// Expired refresh tokens, verification codes and lapsed throttle windows are deleted as the server
// starts and periodically after; rows still in use stay.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXPIRY_SWEEP_INTERVAL_MS } from '../../server/modules/auth/expiry-sweep.js';
import { databaseKinds } from './helpers/databases.js';
import { ADMIN, createTestApp, type TestApp } from './helpers/test-app.js';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`expiry sweep on ${db.kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(db.kind);
    });
    afterAll(() => t?.close());
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Writes one expired and one live row of each kind (tagged), timed by the server's clock. */
    async function seed(tag: string): Promise<void> {
      const k = t.app.db.kysely;
      const now = t.app.services.now().getTime();
      const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
      const admin = await t.app.services.users.findByAccount(ADMIN.account);
      const userId = Number(admin!.id);
      const token = (name: string, expiresIn: number, revoked: boolean) => ({
        user_id: userId,
        family_id: `${tag}-${name}`,
        token_hash: `${tag}-${name}`,
        expires_at: at(expiresIn),
        revoked_at: revoked ? at(-60) : null,
        replaced_at: null,
        created_at: at(-120),
      });
      await k
        .insertInto('refresh_tokens')
        .values([token('expired', -1, false), token('live', 3600, false), token('revoked-live', 3600, true)])
        .execute();
      const code = (name: string, expiresIn: number) => ({
        phone_key: `${tag}-${name}`,
        code_hash: 'x',
        expires_at: at(expiresIn),
        attempts: 0,
        consumed_at: null,
        created_at: at(-400),
      });
      await k
        .insertInto('verification_codes')
        .values([code('expired', -1), code('live', 200)])
        .execute();
      await k
        .insertInto('throttle_counters')
        .values([
          { key: `${tag}-expired`, count: 3, window_ends_at: at(-1) },
          { key: `${tag}-live`, count: 3, window_ends_at: at(300) },
        ])
        .execute();
    }

    /** Which of the tag's rows are left, by table. */
    async function left(tag: string) {
      const k = t.app.db.kysely;
      const names = (rows: { name: string }[]) => rows.map((r) => r.name.slice(tag.length + 1)).sort();
      return {
        refreshTokens: names(
          await k
            .selectFrom('refresh_tokens')
            .select('family_id as name')
            .where('family_id', 'like', `${tag}-%`)
            .execute(),
        ),
        codes: names(
          await k
            .selectFrom('verification_codes')
            .select('phone_key as name')
            .where('phone_key', 'like', `${tag}-%`)
            .execute(),
        ),
        counters: names(
          await k
            .selectFrom('throttle_counters')
            .select('key as name')
            .where('key', 'like', `${tag}-%`)
            .execute(),
        ),
      };
    }

    const swept = { refreshTokens: ['live', 'revoked-live'], codes: ['live'], counters: ['live'] };

    it('deletes expired rows as the server starts and keeps live ones', async () => {
      await seed('start');
      expect((await left('start')).refreshTokens).toHaveLength(3);
      await t.restart();
      expect(await left('start')).toEqual(swept);
    });

    it('deletes them again every interval', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      await t.restart();
      await seed('later');
      vi.advanceTimersByTime(EXPIRY_SWEEP_INTERVAL_MS);
      await vi.waitFor(async () => expect(await left('later')).toEqual(swept));
    });

    it('lets refresh tokens and codes expire by the clock before it deletes them', async () => {
      await seed('aging');
      t.advance(3601);
      await t.restart();
      expect(await left('aging')).toEqual({ refreshTokens: [], codes: [], counters: [] });
    });
  });
}
