// The uploads table (migration 0011): one row per tus upload, whichever replica took its bytes.
// Ownership is checked here, one user's unfinished uploads are bounded here (count and declared
// bytes, in one guarded statement), and the expiry sweep walks it. Times are ISO-8601 text.
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

export const UPLOAD_PURPOSES = ['upscale', 'analysis', 'regenerate', 'workshop', 'collection'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

interface UploadsTable {
  id: string;
  user_id: number;
  purpose: string;
  file_name: string;
  file_type: string;
  /** bigint on PostgreSQL: the driver hands it back as text */
  length: number | string;
  upload_offset: number | string;
  finished: number;
  created_at: string;
  expires_at: string;
}

// A type alias, not an interface: withTables needs an index-compatible record type.
type UploadTables = { uploads: UploadsTable };

export interface UploadRow {
  id: string;
  userId: number;
  purpose: string;
  fileName: string;
  fileType: string;
  length: number;
  offset: number;
  finished: boolean;
  expiresAt: Date;
}

export interface NewUpload {
  id: string;
  userId: number;
  purpose: UploadPurpose;
  fileName: string;
  fileType: string;
  length: number;
}

export interface PendingBounds {
  count: number;
  bytes: number;
}

/** Why a creation was refused: which bound, and when the oldest unfinished upload lapses. */
export interface BoundsReached {
  retryAfterSeconds: number;
}

export class UploadRepository {
  private readonly db: Kysely<Database & UploadTables>;

  constructor(
    private readonly base: Db,
    private readonly now: () => Date,
    private readonly expiryMs: number,
  ) {
    this.db = base.kysely.withTables<UploadTables>();
  }

  /**
   * Records a new upload unless its owner's unfinished uploads would pass either bound. The check
   * and the insert are one statement; on PostgreSQL a transaction lock on the user makes two
   * creations at once (on two replicas) count each other, as SQLite's single writer does.
   */
  async create(upload: NewUpload, bounds: PendingBounds): Promise<BoundsReached | undefined> {
    const now = this.now();
    const nowText = now.toISOString();
    const expires = new Date(now.getTime() + this.expiryMs).toISOString();
    const inserted = await this.db.transaction().execute(async (trx) => {
      if (this.base.dialect === 'postgres') {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`loom-uploads:${upload.userId}`}))`.execute(trx);
      }
      const pending = sql`FROM uploads WHERE user_id = ${upload.userId} AND finished = 0 AND expires_at > ${nowText}`;
      const result = await sql`
        INSERT INTO uploads (id, user_id, purpose, file_name, file_type, length, upload_offset, finished, created_at, expires_at)
        SELECT CAST(${upload.id} AS TEXT), CAST(${upload.userId} AS INTEGER), CAST(${upload.purpose} AS TEXT),
               CAST(${upload.fileName} AS TEXT), CAST(${upload.fileType} AS TEXT), CAST(${upload.length} AS BIGINT),
               0, 0, CAST(${nowText} AS TEXT), CAST(${expires} AS TEXT)
        WHERE (SELECT COUNT(*) ${pending}) < ${bounds.count}
          AND (SELECT COALESCE(SUM(length), 0) ${pending}) + ${upload.length} <= ${bounds.bytes}
      `.execute(trx);
      return Number(result.numAffectedRows ?? 0n) > 0;
    });
    if (inserted) return undefined;
    const oldest = await this.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.min('expires_at').as('first'))
      .where('user_id', '=', upload.userId)
      .where('finished', '=', 0)
      .where('expires_at', '>', nowText)
      .executeTakeFirst();
    const lapse = oldest?.first ? Date.parse(String(oldest.first)) - now.getTime() : 60_000;
    return { retryAfterSeconds: Math.max(1, Math.ceil(lapse / 1000)) };
  }

  /** The upload, or undefined when there is none (or it has expired, swept or not). */
  async find(id: string): Promise<UploadRow | undefined> {
    const row = await this.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', this.now().toISOString())
      .executeTakeFirst();
    return row ? toRow(row) : undefined;
  }

  /** The bytes the store has now (after a PATCH). */
  async recordOffset(id: string, offset: number): Promise<void> {
    await this.db
      .updateTable('uploads')
      .set({ upload_offset: offset })
      .where('id', '=', id)
      .where('finished', '=', 0)
      .execute();
  }

  /** Every byte is in and the image passed its checks: calls may use it from now on. */
  async finish(id: string, length: number): Promise<void> {
    await this.db
      .updateTable('uploads')
      .set({ upload_offset: length, finished: 1 })
      .where('id', '=', id)
      .execute();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('uploads').where('id', '=', id).execute();
  }

  /** Ids of uploads past their expiry, oldest first, `limit` at most. */
  async expired(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('uploads')
      .select('id')
      .where('expires_at', '<=', this.now().toISOString())
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }
}

function toRow(row: UploadsTable): UploadRow {
  return {
    id: row.id,
    userId: Number(row.user_id),
    purpose: row.purpose,
    fileName: row.file_name,
    fileType: row.file_type,
    length: Number(row.length),
    offset: Number(row.upload_offset),
    finished: Number(row.finished) === 1,
    expiresAt: new Date(row.expires_at),
  };
}
