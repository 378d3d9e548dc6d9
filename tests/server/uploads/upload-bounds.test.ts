// One user's unfinished uploads are bounded in count and in declared bytes by one guarded statement
// (server/modules/uploads/upload-repository.ts), on SQLite and PostgreSQL: a creation past either
// bound is refused with the time until the oldest lapses, a finished upload no longer counts, and
// creations that race (as on two replicas) never pass the bound together.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { createUsersRepository } from '../../../server/modules/users/users-repository.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { UploadRepository } from '../../../server/modules/uploads/upload-repository.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';

const HOUR = 3600 * 1000;

describe.each(databaseKinds)('upload bounds on $kind', ({ kind, skip }) => {
  let db: Db;
  let dir: string;
  const schema = uniqueSchema();
  let nowMs = Date.parse('2026-11-27T12:00:00.000Z');
  let repo: UploadRepository;
  let users = 0;

  beforeAll(async () => {
    if (skip) return;
    dir = mkdtempSync(path.join(tmpdir(), 'loom-bounds-'));
    db = await openDatabase(
      kind === 'sqlite' ? { kind, file: path.join(dir, 'db.sqlite') } : { kind, url: POSTGRES_URL, schema },
    );
    await migrateToLatest(db);
    repo = new UploadRepository(db, () => new Date(nowMs), 24 * HOUR);
  });
  afterAll(async () => {
    if (skip) return;
    await db.close();
    if (kind === 'postgres') await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  const user = async () => {
    users += 1;
    const row = await createUsersRepository(db.kysely, () => new Date(nowMs)).create({
      account: `bounds-${users}`,
      international_code: '86',
      display_name: 'b',
      user_level: 'DESIGNER',
      password_hash: null,
    });
    return row.id;
  };
  const upload = (userId: number, n: number, length: number) => ({
    id: `${userId.toString(16).padStart(8, '0')}${n.toString(16).padStart(24, '0')}`,
    userId,
    purpose: 'upscale' as const,
    fileName: `f${n}.png`,
    fileType: 'image/png',
    length,
  });

  it.skipIf(skip)(
    'refuses past the bytes bound, says when the oldest lapses, and counts no finished upload',
    async () => {
      const id = await user();
      const bounds = { count: 10, bytes: 5000 };
      expect(await repo.create(upload(id, 1, 3000), bounds)).toBeUndefined();
      nowMs += HOUR;
      const refused = await repo.create(upload(id, 2, 3000), bounds);
      expect(refused?.retryAfterSeconds).toBe(23 * 3600);
      expect(await repo.create(upload(id, 3, 2000), bounds)).toBeUndefined();
      await repo.finish(upload(id, 1, 3000).id, 3000);
      expect(await repo.create(upload(id, 4, 3000), bounds)).toBeUndefined();
      // A lapsed upload counts no more either.
      nowMs += 24 * HOUR;
      expect(await repo.create(upload(id, 5, 5000), bounds)).toBeUndefined();
    },
  );

  it.skipIf(skip)('lets no race of creations pass the count together', async () => {
    const id = await user();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, n) => repo.create(upload(id, 100 + n, 10), { count: 4, bytes: 1e9 })),
    );
    expect(results.filter((r) => r === undefined)).toHaveLength(4);
  });
});
