// Six-digit phone codes: stored hashed, valid 5 minutes, one send per phone per 60 s, and five
// wrong tries kill the code.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { keyedHash, sameHash } from './secret-hash.js';

export const CODE_TTL_SECONDS = 300;
export const RESEND_AFTER_SECONDS = 60;
export const MAX_CODE_ATTEMPTS = 5;

export const phoneKey = (internationalCode: string, phone: string) => `${internationalCode}-${phone}`;

export type IssueResult = { ok: true; id: number; code: string } | { ok: false; retryAfterSeconds: number };

export function createVerificationCodes(db: Kysely<Database>, key: Uint8Array, now: () => Date) {
  const hashFor = (phone: string, code: string) => keyedHash(key, `${phone}:${code}`);

  async function latestFor(phone: string) {
    return db
      .selectFrom('verification_codes')
      .selectAll()
      .where('phone_key', '=', phone)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  return {
    async issue(phone: string): Promise<IssueResult> {
      const t = now();
      const latest = await latestFor(phone);
      if (latest) {
        const elapsed = (t.getTime() - Date.parse(latest.created_at)) / 1000;
        if (elapsed < RESEND_AFTER_SECONDS) {
          return { ok: false, retryAfterSeconds: Math.ceil(RESEND_AFTER_SECONDS - elapsed) };
        }
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      // A new code replaces any earlier one.
      await db
        .updateTable('verification_codes')
        .set({ consumed_at: t.toISOString() })
        .where('phone_key', '=', phone)
        .where('consumed_at', 'is', null)
        .execute();
      const row = await db
        .insertInto('verification_codes')
        .values({
          phone_key: phone,
          code_hash: hashFor(phone, code),
          expires_at: new Date(t.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
          attempts: 0,
          consumed_at: null,
          created_at: t.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ok: true, id: Number(row.id), code };
    },
    /** Forgets a code whose message could not be sent, so the user may ask again at once. */
    async discard(id: number): Promise<void> {
      await db.deleteFrom('verification_codes').where('id', '=', id).execute();
    },
    async consume(phone: string, code: string): Promise<boolean> {
      const t = now().toISOString();
      const latest = await latestFor(phone);
      if (!latest) return false;
      const hash = hashFor(phone, code);
      // One conditional update per try takes one of the five tries, compares and settles the code
      // at once: a right code is spent and the fifth wrong try kills it. Parallel guesses each need
      // their own row update, so no more than five are ever compared, and none settles the code
      // between another's compare and its spend (a fifth wrong try that did refused a right code
      // already taken as the second try).
      const taken = await db
        .updateTable('verification_codes')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          consumed_at: eb
            .case()
            .when('code_hash', '=', hash)
            .then(t)
            .when('attempts', '>=', MAX_CODE_ATTEMPTS - 1)
            .then(t)
            .else(null)
            .end(),
        }))
        .where('id', '=', latest.id)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', t)
        .where('attempts', '<', MAX_CODE_ATTEMPTS)
        .returning(['code_hash'])
        .executeTakeFirst();
      return taken !== undefined && sameHash(taken.code_hash, hash);
    },
    /** Deletes expired codes. The resend pause (60 s) is shorter than a code's life, so it never needs one. */
    async deleteExpired(): Promise<number> {
      const r = await db.deleteFrom('verification_codes').where('expires_at', '<=', now().toISOString()).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type VerificationCodes = ReturnType<typeof createVerificationCodes>;
