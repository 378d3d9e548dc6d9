// Applies a mutation at most once per (user, Idempotency-Key). The key is claimed inside the same
// transaction as the write, before it: a concurrent duplicate blocks on the primary key, then
// fails and replays the stored answer. Failed writes roll back the claim, so a refused request is
// evaluated afresh when it is sent again (nothing was applied). Checks only a first call must pass
// (the user's cap on waiting jobs) go in `firstOnly`: a resend whose answer was lost is answered
// with what its first call did, whatever those checks would say now. Shared by the prompt calls,
// video creation and the workshop's item creation; the write gets the transaction over the app's
// base schema and widens it with its module's tables (`trx.withTables<…>()`).
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { AppError } from './app-error.js';
import type { MessageKey } from './messages.js';

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  fingerprint: string;
  status: number;
  response: string;
  created_at: string;
}

// A type alias, not an interface: withTables needs an index-compatible record type.
export type IdempotencyTables = { idempotency_keys: IdempotencyKeysTable };

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const keyPattern = /^[A-Za-z0-9_.:-]{8,128}$/;

/** The request's Idempotency-Key, if it sent one; a malformed key is refused. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (key !== undefined && !keyPattern.test(key)) {
    throw new AppError(400, 'invalid_request', {
      errors: [{ field: IDEMPOTENCY_HEADER, message: 'must be 8 to 128 letters, digits or _.:-' }],
    });
  }
  return key;
}

/** What a mutation answers: HTTP status, message key and data; stored for replays. */
export interface StoredOutcome {
  status: number;
  messageKey: MessageKey;
  data: unknown;
}

export interface IdempotentResult extends StoredOutcome {
  replayed: boolean;
}

/** Keys are kept this long; a client's outbox replays long before that. */
export const KEY_RETENTION_DAYS = 30;

class KeyTaken extends Error {}

export function fingerprintOf(method: string, route: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

export function createIdempotencyStore(base: Kysely<Database>, now: () => Date) {
  const db = base.withTables<IdempotencyTables>();
  async function stored(userId: number, key: string, fingerprint: string): Promise<IdempotentResult | undefined> {
    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return undefined;
    // The same key for a different request is a client bug; applying either silently would lose data.
    if (row.fingerprint !== fingerprint) throw new AppError(422, 'idempotency_key_mismatch');
    const outcome = JSON.parse(row.response) as StoredOutcome;
    return { ...outcome, status: Number(row.status), replayed: true };
  }

  return {
    async run(
      userId: number,
      key: string | undefined,
      fingerprint: string,
      write: (trx: Transaction<Database>) => Promise<StoredOutcome>,
      /** checked before the write, outside its transaction (SQLite's one connection); never for a replay */
      firstOnly?: () => Promise<void>,
    ): Promise<IdempotentResult> {
      if (!key) {
        await firstOnly?.();
        return { ...(await base.transaction().execute(write)), replayed: false };
      }
      const earlier = await stored(userId, key, fingerprint);
      if (earlier) return earlier;
      await firstOnly?.();
      try {
        return await base.transaction().execute(async (baseTrx) => {
          const trx = baseTrx.withTables<IdempotencyTables>();
          const t = now();
          try {
            await trx
              .insertInto('idempotency_keys')
              .values({ user_id: userId, key, fingerprint, status: 0, response: '{}', created_at: t.toISOString() })
              .execute();
          } catch (error) {
            if (isUniqueViolation(error)) throw new KeyTaken();
            throw error;
          }
          const outcome = await write(baseTrx);
          await trx
            .updateTable('idempotency_keys')
            .set({ status: outcome.status, response: JSON.stringify(outcome) })
            .where('user_id', '=', userId)
            .where('key', '=', key)
            .execute();
          const horizon = new Date(t.getTime() - KEY_RETENTION_DAYS * 86_400_000).toISOString();
          await trx.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('created_at', '<', horizon).execute();
          return { ...outcome, replayed: false };
        });
      } catch (error) {
        if (!(error instanceof KeyTaken)) throw error;
        const winner = await stored(userId, key, fingerprint);
        if (!winner) throw new AppError(409, 'idempotency_in_progress');
        return winner;
      }
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
