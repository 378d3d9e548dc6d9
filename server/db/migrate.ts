// Runs every migration at start; the same list serves SQLite and PostgreSQL.
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Db, Dialect } from './database.js';
import type { Database } from './schema.js';
import { accountsMigration } from './migrations/0001-accounts.js';
import { promptsMigration } from './migrations/0002-prompts.js';
import { throttleAndTokenVersionMigration } from './migrations/0003-throttle-and-token-version.js';
import { generationMigration } from './migrations/0004-generation.js';
import { upscaleReplaysMigration } from './migrations/0005-upscale-replays.js';
import { upscaleJobsMigration } from './migrations/0006-upscale-jobs.js';
import { wordedLabelsAndTextChangesMigration } from './migrations/0007-worded-labels-and-text-changes.js';
import { jobWorkersMigration } from './migrations/0008-job-workers.js';
import { candidateTasksMigration } from './migrations/0009-candidate-tasks.js';
import { rowOwnersMigration } from './migrations/0010-row-owners.js';
import { uploadsMigration } from './migrations/0011-uploads.js';
import { collectionsMigration } from './migrations/0012-collections.js';
import { jobClassMigration } from './migrations/0013-job-class.js';
import { refreshGraceUsesMigration } from './migrations/0014-refresh-grace-uses.js';

// Later features append their migrations here; names sort in the order they must run.
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-accounts': accountsMigration(dialect),
    '0002-prompts': promptsMigration(dialect),
    '0003-throttle-and-token-version': throttleAndTokenVersionMigration(),
    '0004-generation': generationMigration(dialect),
    '0005-upscale-replays': upscaleReplaysMigration(),
    '0006-upscale-jobs': upscaleJobsMigration(dialect),
    '0007-worded-labels-and-text-changes': wordedLabelsAndTextChangesMigration(),
    '0008-job-workers': jobWorkersMigration(),
    '0009-candidate-tasks': candidateTasksMigration(),
    '0010-row-owners': rowOwnersMigration(),
    '0011-uploads': uploadsMigration(dialect),
    '0012-collections': collectionsMigration(dialect),
    '0013-job-class': jobClassMigration(),
    '0014-refresh-grace-uses': refreshGraceUsesMigration(),
  };
}

export async function migrateToLatest(db: Db, extra: Record<string, Migration> = {}): Promise<void> {
  if (db.dialect !== 'postgres') return migrateOn(db, db.kysely, extra);
  // Replicas and workers of a team start together: one migrates while the others wait on this
  // lock (Kysely's own lock row comes too late — creating its tables already races).
  await db.kysely.connection().execute(async (conn) => {
    const key = `loom-migrate:${db.schema ?? 'public'}`;
    await sql`SELECT pg_advisory_lock(hashtext(${key}))`.execute(conn);
    try {
      await migrateOn(db, conn, extra);
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${key}))`.execute(conn);
    }
  });
}

async function migrateOn(db: Db, kysely: Kysely<Database>, extra: Record<string, Migration>): Promise<void> {
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: async () => ({ ...migrationsFor(db.dialect), ...extra }) },
    // Named explicitly: Kysely's check for its own tables otherwise matches them in any schema, so
    // a database with another schema that has them (another tenant, a test run) skipped creating
    // ours and failed with 'relation "kysely_migration_lock" does not exist'.
    ...(db.dialect === 'postgres' ? { migrationTableSchema: db.schema ?? 'public' } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const why = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Database migration failed: ${why}`);
  }
}
