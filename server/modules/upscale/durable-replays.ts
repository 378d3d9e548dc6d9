// Finished keyed upscales kept in the database, so the answer to a request survives the process
// that gave it: when a crash, a restart or a load balancer comes between the engine's result and
// the reply reaching the tablet, the PWA's resend with the same Idempotency-Key is answered from
// this record, by this replica or any other on the same database, instead of running the model a
// second time. One row per (user, key), removed when it expires or its owner cancels.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { UpscaleOutcome } from './upscale-service.js';

export interface ReplayRecord {
  /** The request's user, parameters and image (IdempotentResults.fingerprint): a key reused for other work does not match. */
  fingerprint: string;
  outcome: UpscaleOutcome;
  /** ms since the epoch. */
  expiresAt: number;
}

interface UpscaleReplaysTable {
  user_id: number;
  key: string;
  fingerprint: string;
  result_id: string;
  outcome_json: string;
  /** ISO-8601, like every time in the database */
  expires_at: string;
  created_at: string;
}

// A type alias, not an interface: withTables needs an index-compatible record type.
type ReplayTables = { upscale_replays: UpscaleReplaysTable };

/** A row replaced by a newer one between our read and our write is read again, a few times at most. */
const PUT_ATTEMPTS = 4;

export class DurableReplays {
  private readonly db: Kysely<Database & ReplayTables>;

  /**
   * `published` says whether the record's result is there to hand out: a record is written just
   * before its result is published, so a crash in between leaves a record whose result never
   * appeared, which must not be replayed. By default every record counts as published.
   */
  constructor(
    db: Kysely<Database>,
    private readonly now: () => Date,
    private readonly published: (outcome: UpscaleOutcome) => Promise<boolean> = async () => true,
  ) {
    this.db = db.withTables<ReplayTables>();
  }

  async get(owner: number, key: string): Promise<ReplayRecord | undefined> {
    const row = await this.row(owner, key);
    if (!row) return undefined;
    const record = toRecord(row);
    if (record.expiresAt <= this.now().getTime()) {
      // Guarded by the expiry again: a fresh record written meanwhile stays.
      await this.db
        .deleteFrom('upscale_replays')
        .where('user_id', '=', owner)
        .where('key', '=', key)
        .where('expires_at', '<=', this.now().toISOString())
        .execute();
      return undefined;
    }
    // Not deleted when its result is missing: another replica may be between writing the record
    // and publishing the result. The resend runs, and its own record replaces this one (put).
    if (!(await this.published(record.outcome))) return undefined;
    return record;
  }

  /**
   * Keeps the first live record of a key: the insert is one statement that does nothing when the
   * key has a record, so two replicas racing on one key leave one. A record that cannot be
   * replayed (expired, another image under the key, its result never published) is replaced, by an
   * update guarded on the very row that was read.
   */
  async put(owner: number, key: string, record: ReplayRecord): Promise<void> {
    const values = {
      fingerprint: record.fingerprint,
      result_id: record.outcome.resultId,
      outcome_json: JSON.stringify(record.outcome),
      expires_at: new Date(record.expiresAt).toISOString(),
      created_at: this.now().toISOString(),
    };
    for (let attempt = 0; attempt < PUT_ATTEMPTS; attempt++) {
      const inserted = await this.db
        .insertInto('upscale_replays')
        .values({ user_id: owner, key, ...values })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return;
      const existing = await this.row(owner, key);
      if (!existing) continue; // removed meanwhile (a cancel, the sweep): insert again
      const earlier = toRecord(existing);
      const replayable =
        earlier.fingerprint === record.fingerprint &&
        earlier.expiresAt > this.now().getTime() &&
        (await this.published(earlier.outcome));
      if (replayable) return; // the same work, answered first elsewhere: its answer is the one kept
      const replaced = await this.db
        .updateTable('upscale_replays')
        .set(values)
        .where('user_id', '=', owner)
        .where('key', '=', key)
        .where('fingerprint', '=', existing.fingerprint)
        .where('result_id', '=', existing.result_id)
        .executeTakeFirst();
      if (Number(replaced.numUpdatedRows) > 0) return;
    }
    throw new Error('upscale replay record kept changing under its key');
  }

  /** Returns how many records it removed (0 or 1); awaited, so a cancel is done before its reply. */
  async remove(owner: number, key: string): Promise<number> {
    const r = await this.db
      .deleteFrom('upscale_replays')
      .where('user_id', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Removes expired records; returns how many. */
  async sweep(): Promise<number> {
    const r = await this.db
      .deleteFrom('upscale_replays')
      .where('expires_at', '<=', this.now().toISOString())
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  private row(owner: number, key: string): Promise<UpscaleReplaysTable | undefined> {
    return this.db
      .selectFrom('upscale_replays')
      .selectAll()
      .where('user_id', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst();
  }
}

function toRecord(row: UpscaleReplaysTable): ReplayRecord {
  return {
    fingerprint: row.fingerprint,
    outcome: JSON.parse(row.outcome_json) as UpscaleOutcome,
    expiresAt: Date.parse(row.expires_at),
  };
}
