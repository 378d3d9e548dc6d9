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
      const row = await latestFor(phone);
      if (!row || row.consumed_at || row.expires_at <= t || row.attempts >= MAX_CODE_ATTEMPTS) return false;
      if (sameHash(row.code_hash, hashFor(phone, code))) {
        const r = await db
          .updateTable('verification_codes')
          .set({ consumed_at: t })
          .where('id', '=', row.id)
          .where('consumed_at', 'is', null)
          .executeTakeFirst();
        return Number(r.numUpdatedRows) === 1;
      }
      const attempts = row.attempts + 1;
      await db
        .updateTable('verification_codes')
        .set({ attempts, ...(attempts >= MAX_CODE_ATTEMPTS ? { consumed_at: t } : {}) })
        .where('id', '=', row.id)
        .execute();
      return false;
    },
  };
}

export type VerificationCodes = ReturnType<typeof createVerificationCodes>;
