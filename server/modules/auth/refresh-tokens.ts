// Opaque refresh tokens, stored as keyed hashes, rotated on every use. Presenting a token that was
// already rotated means it leaked: the whole family (every descendant) is revoked. Except within
// ROTATION_GRACE_SECONDS of its rotation: two tabs of one browser share the token and refresh at
// once when the access token lapses, and an answer lost on a flaky network leaves the page holding
// the old token. Both present it again within seconds, and signing the designer out for it would be
// wrong; such a token gets another successor of its family instead (a grace period, as identity
// providers offer for rotation).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { keyedHash, randomToken } from './secret-hash.js';

export const ROTATION_GRACE_SECONDS = 30;
/**
 * The most tokens a family may gain within one token's grace period (its own successors and
 * theirs): a few tabs and a lost answer stay far below it, a replay loop is cut off. Past it the
 * old token is treated as leaked.
 */
export const GRACE_SUCCESSORS_MAX = 8;

function withinGrace(replacedAt: string, t: Date): boolean {
  return t.getTime() - new Date(replacedAt).getTime() < ROTATION_GRACE_SECONDS * 1000;
}

export function createRefreshTokens(db: Kysely<Database>, key: Uint8Array, ttlSeconds: number, now: () => Date) {
  async function issue(userId: number, familyId: string = randomUUID()): Promise<string> {
    const token = randomToken();
    const t = now();
    await db
      .insertInto('refresh_tokens')
      .values({
        user_id: userId,
        family_id: familyId,
        token_hash: keyedHash(key, token),
        expires_at: new Date(t.getTime() + ttlSeconds * 1000).toISOString(),
        revoked_at: null,
        replaced_at: null,
        created_at: t.toISOString(),
      })
      .execute();
    return token;
  }

  async function revokeFamily(familyId: string): Promise<void> {
    await db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now().toISOString() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async function successor(row: { user_id: number; family_id: string }) {
    return { userId: Number(row.user_id), token: await issue(Number(row.user_id), row.family_id) };
  }

  return {
    issue,
    /** Trades a valid token for a new one of the same family; null when the token is not usable. */
    async rotate(token: string): Promise<{ userId: number; token: string } | null> {
      const hash = keyedHash(key, token);
      const find = () => db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
      let row = await find();
      if (!row) return null;
      const t = now();
      if (!row.revoked_at && !row.replaced_at) {
        if (row.expires_at <= t.toISOString()) return null;
        // The conditional update decides between two rotations (or a rotation and a logout) racing
        // on one token; the loser reads the row again below.
        const marked = await db
          .updateTable('refresh_tokens')
          .set({ replaced_at: t.toISOString() })
          .where('id', '=', row.id)
          .where('replaced_at', 'is', null)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 1) return successor(row);
        row = await find();
        if (!row) return null;
      }
      if (!row.revoked_at && row.replaced_at && withinGrace(row.replaced_at, t)) {
        const since = await db
          .selectFrom('refresh_tokens')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
          .where('family_id', '=', row.family_id)
          .where('created_at', '>=', row.replaced_at)
          .executeTakeFirstOrThrow();
        if (Number(since.n) < GRACE_SUCCESSORS_MAX) return successor(row);
      }
      await revokeFamily(row.family_id);
      return null;
    },
    /**
     * Ends a live token's family and answers whose token it was; null for a token that is unknown,
     * expired, rotated or revoked, and then nothing changes. A dead token must not be a way to end
     * someone's sessions (its reuse is caught when it is presented to rotate instead). The token is
     * claimed with the same conditional update as a rotation, so a logout and a rotation racing on
     * one token cannot both win.
     */
    async revoke(token: string): Promise<number | null> {
      const row = await db
        .selectFrom('refresh_tokens')
        .select(['id', 'family_id', 'user_id'])
        .where('token_hash', '=', keyedHash(key, token))
        .executeTakeFirst();
      if (!row) return null;
      const t = now().toISOString();
      const claimed = await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: t })
        .where('id', '=', row.id)
        .where('replaced_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', t)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return null;
      await revokeFamily(row.family_id);
      return Number(row.user_id);
    },
    async revokeAllForUser(userId: number): Promise<void> {
      await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: now().toISOString() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
    },
    /**
     * Deletes expired tokens: they can no longer be used, and a rotated one presented after its
     * expiry is refused either way. Revoked and rotated tokens stay until then for reuse detection.
     */
    async deleteExpired(): Promise<number> {
      const r = await db.deleteFrom('refresh_tokens').where('expires_at', '<=', now().toISOString()).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type RefreshTokens = ReturnType<typeof createRefreshTokens>;
