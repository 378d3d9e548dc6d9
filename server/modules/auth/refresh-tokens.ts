// Opaque refresh tokens, stored as keyed hashes, rotated on every use. Presenting a token that was
// already rotated means it leaked: the whole family (every descendant) is revoked.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { keyedHash, randomToken } from './secret-hash.js';

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

  return {
    issue,
    /** Trades a valid token for a new one of the same family; null when the token is not usable. */
    async rotate(token: string): Promise<{ userId: number; token: string } | null> {
      const row = await db
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('token_hash', '=', keyedHash(key, token))
        .executeTakeFirst();
      if (!row) return null;
      if (row.revoked_at || row.replaced_at) {
        await revokeFamily(row.family_id);
        return null;
      }
      if (row.expires_at <= now().toISOString()) return null;
      // The conditional update makes two concurrent rotations of one token count as a reuse.
      const marked = await db
        .updateTable('refresh_tokens')
        .set({ replaced_at: now().toISOString() })
        .where('id', '=', row.id)
        .where('replaced_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) {
        await revokeFamily(row.family_id);
        return null;
      }
      return { userId: Number(row.user_id), token: await issue(Number(row.user_id), row.family_id) };
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
