// Refresh-token families against the real databases, below the HTTP layer: what a replay that
// raced its family's revocation leaves behind. Through the API that race is a matter of timing;
// here its outcome is set up directly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { createRefreshTokens, GRACE_SUCCESSORS_MAX } from '../../server/modules/auth/refresh-tokens.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from './helpers/databases.js';

for (const kind of databaseKinds) {
  describe.skipIf(kind.skip)(`refresh-token families on ${kind.kind}`, () => {
    let db: Db;
    let dir: string | undefined;
    let schema: string | undefined;
    let userId: number;
    beforeAll(async () => {
      if (kind.kind === 'sqlite') {
        dir = mkdtempSync(path.join(tmpdir(), 'loom-tokens-'));
        db = await openDatabase({ kind: 'sqlite', file: path.join(dir, 'loom.db') });
      } else {
        schema = uniqueSchema();
        db = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema });
      }
      await migrateToLatest(db);
      const t = new Date().toISOString();
      const user = await db.kysely
        .insertInto('users')
        .values({ account: 'ann', display_name: 'Ann', international_code: '86', user_level: 'GENERAL', wechat_account: null, phone: null, password_hash: null, disabled: 0, created_at: t, updated_at: t })
        .returning('id')
        .executeTakeFirstOrThrow();
      userId = Number(user.id);
    });
    afterAll(async () => {
      await db?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (schema) await dropSchema(schema);
    });

    it('refuses, at its first use, a successor issued after its family was revoked, and revokes it', async () => {
      const tokens = createRefreshTokens(db.kysely, new Uint8Array(32).fill(7), 3600, () => new Date());
      const first = await tokens.issue(userId);
      const second = await tokens.rotate(first);
      expect(second).not.toBeNull();
      const { family_id: familyId } = await db.kysely
        .selectFrom('refresh_tokens')
        .select('family_id')
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      // The family is signed out; a replay of the first token that had passed its check just before
      // inserts its successor just after.
      expect(await tokens.revoke(second!.token)).toBe(userId);
      const late = await tokens.issue(userId, familyId);
      expect(await tokens.rotate(late)).toBeNull();
      const live = await db.kysely
        .selectFrom('refresh_tokens')
        .select('id')
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
      expect(live).toEqual([]);
    });

    it('grants a token its whole grace bound when it was issued and rotated within one millisecond', async () => {
      // A sign-in and the page's first refresh can fall in the same millisecond (CI saw it): the
      // token's own row must not count as one its family gained since its rotation.
      const frozen = new Date();
      const tokens = createRefreshTokens(db.kysely, new Uint8Array(32).fill(9), 3600, () => frozen);
      const first = await tokens.issue(userId);
      for (let i = 0; i < GRACE_SUCCESSORS_MAX; i++) expect(await tokens.rotate(first), `presentation ${i + 1}`).not.toBeNull();
      expect(await tokens.rotate(first)).toBeNull();
    });
  });
}
