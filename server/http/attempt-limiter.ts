// Fixed-window attempt counters in the database, keyed by anything (an address, an account, a
// phone, an account at an address). In the database so a restart does not reset them and every
// replica counts against the same budget.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface LimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

export interface AttemptLimiter {
  /**
   * Counts one attempt if the window has room, in one statement: parallel attempts each need their
   * own row update, so no more than `max` are ever allowed per window. A refused one is not counted.
   */
  take(key: string): Promise<LimitDecision>;
  /** Returns one taken attempt (a request that went no further, or one that proved legitimate). */
  giveBack(key: string): Promise<void>;
  /** Forgets the key's window. */
  reset(key: string): Promise<void>;
}

export interface AttemptLimits {
  /** A limiter of `max` attempts per `windowSeconds`; `name` keeps its keys apart from others'. */
  limiter(name: string, max: number, windowSeconds: number): AttemptLimiter;
  /** Deletes every counter whose window has lapsed; answers how many went. */
  deleteLapsed(): Promise<number>;
}

export function createAttemptLimits(db: Kysely<Database>, now: () => Date): AttemptLimits {
  return {
    limiter: (name, max, windowSeconds) => createAttemptLimiter(db, name, max, windowSeconds, now),
    async deleteLapsed() {
      const r = await db
        .deleteFrom('throttle_counters')
        .where('window_ends_at', '<=', now().toISOString())
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

function createAttemptLimiter(
  db: Kysely<Database>,
  name: string,
  max: number,
  windowSeconds: number,
  now: () => Date,
): AttemptLimiter {
  const rowKey = (key: string) => `${name}:${key}`;
  return {
    async take(key) {
      const t = now();
      const current = t.toISOString();
      const windowEnd = new Date(t.getTime() + windowSeconds * 1000).toISOString();
      // A lapsed window starts again at 1; a live one grows only while below max.
      const taken = await db
        .insertInto('throttle_counters')
        .values({ key: rowKey(key), count: 1, window_ends_at: windowEnd })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet((eb) => {
              const lapsed = eb('throttle_counters.window_ends_at', '<=', current);
              return {
                count: eb
                  .case()
                  .when(lapsed)
                  .then(1)
                  .else(eb('throttle_counters.count', '+', 1))
                  .end(),
                window_ends_at: eb
                  .case()
                  .when(lapsed)
                  .then(windowEnd)
                  .else(eb.ref('throttle_counters.window_ends_at'))
                  .end(),
              };
            })
            .where((eb) =>
              eb.or([
                eb('throttle_counters.window_ends_at', '<=', current),
                eb('throttle_counters.count', '<', max),
              ]),
            ),
        )
        .returning('count')
        .executeTakeFirst();
      if (taken) return { allowed: true, retryAfterSeconds: 0 };
      const row = await db
        .selectFrom('throttle_counters')
        .select('window_ends_at')
        .where('key', '=', rowKey(key))
        .executeTakeFirst();
      const left = row ? Date.parse(row.window_ends_at) - t.getTime() : 0;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
    },
    async giveBack(key) {
      await db
        .updateTable('throttle_counters')
        .set((eb) => ({ count: eb('count', '-', 1) }))
        .where('key', '=', rowKey(key))
        .where('count', '>', 0)
        .where('window_ends_at', '>', now().toISOString())
        .execute();
    },
    async reset(key) {
      await db.deleteFrom('throttle_counters').where('key', '=', rowKey(key)).execute();
    },
  };
}
