// Opaque refresh tokens, stored as keyed hashes, rotated on every use. Presenting a token that was
// already rotated means it leaked: the whole family (every descendant) is revoked. Except within
// ROTATION_GRACE_SECONDS of its rotation: two tabs of one browser share the token and refresh at
// once when the access token lapses, and an answer lost on a flaky network leaves the page holding
// the old token. Both present it again within seconds, and signing the designer out for it would be
// wrong; such a token gets another successor of its family instead (a grace period, as identity
// providers offer for rotation).
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { keyedHash, randomToken } from './secret-hash.js';

export const ROTATION_GRACE_SECONDS = 30;
/**
 * The most successors one token may have (its rotation and its replays within the grace period),
 * and the most tokens its family may gain within that period (its successors' own successors too):
 * a few tabs and a lost answer stay far below it, a replay loop is cut off. Past it the old token
 * is treated as leaked.
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
      const { id, family_id: familyId } = row;
      const t = now();
      // A rotation also asks that no token of the family is revoked: a successor inserted by a replay
      // that raced the family's revocation is refused at its first use, not kept alive. (A grace
      // grant needs no such check: revoking the family revokes the replayed token's own row first.)
      const familyLive = (eb: ExpressionBuilder<Database, 'refresh_tokens'>) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('refresh_tokens as f')
              .select('f.id')
              .where('f.family_id', '=', familyId)
              .where('f.revoked_at', 'is not', null),
          ),
        );
      if (!row.revoked_at && !row.replaced_at) {
        if (row.expires_at <= t.toISOString()) return null;
        // The conditional update decides between two rotations (or a rotation and a logout) racing
        // on one token; the loser reads the row again below.
        const marked = await db
          .updateTable('refresh_tokens')
          .set({ replaced_at: t.toISOString() })
          .where('id', '=', id)
          .where('replaced_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where(familyLive)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 1) return successor(row);
        row = await find();
        if (!row) return null;
      }
      const replacedAt = row.replaced_at;
      if (!row.revoked_at && replacedAt && withinGrace(replacedAt, t)) {
        // One guarded update counts the grace successor on the token's own row, so replays arriving
        // at once cannot all pass a count read before any of them wrote. The family bound beside it
        // also counts the successors' own successors: the family's rows newer than this token (a
        // later id) made since its rotation; by time alone, a token issued in the millisecond of its
        // rotation counted itself.
        const granted = await db
          .updateTable('refresh_tokens')
          .set((eb) => ({ grace_uses: eb('grace_uses', '+', 1) }))
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .where('grace_uses', '<', GRACE_SUCCESSORS_MAX - 1)
          .where((eb) =>
            eb(
              eb
                .selectFrom('refresh_tokens as f')
                .select((f) => f.fn.countAll<number>().as('n'))
                .where('f.family_id', '=', familyId)
                .where('f.id', '>', id)
                .where('f.created_at', '>=', replacedAt),
              '<',
              GRACE_SUCCESSORS_MAX,
            ),
          )
          .executeTakeFirst();
        if (Number(granted.numUpdatedRows) === 1) return successor(row);
      }
      await revokeFamily(familyId);
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
