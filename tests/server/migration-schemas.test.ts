// Several schemas in one PostgreSQL database (tenants, parallel test runs): migrating one must not
// be fooled by Kysely's own tables in another. It was: the lock table was "found" elsewhere, not
// created here, and the migration failed.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../../server/db/database.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from './helpers/databases.js';

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;

describe.skipIf(postgres.skip)('migrations per PostgreSQL schema', () => {
  it('migrates a schema while another schema already has the migration tables', async () => {
    const first = uniqueSchema();
    const second = uniqueSchema();
    try {
      const a = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema: first });
      await migrateToLatest(a);
      await a.close();
      const b = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema: second });
      await expect(migrateToLatest(b)).resolves.toBeUndefined();
      const users = await b.kysely.selectFrom('users').select('id').execute();
      expect(users).toEqual([]);
      await b.close();
    } finally {
      await dropSchema(first);
      await dropSchema(second);
    }
  });

  it('lets several processes start on one new schema at once (team mode: replicas and workers)', async () => {
    const schema = uniqueSchema();
    try {
      // Four processes' connections opening and migrating the same fresh schema at the same moment.
      const dbs = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema })));
      const results = await Promise.allSettled(dbs.map((db) => migrateToLatest(db)));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(await dbs[0]!.kysely.selectFrom('users').select('id').execute()).toEqual([]);
      await Promise.all(dbs.map((db) => db.close()));
    } finally {
      await dropSchema(schema);
    }
  });

  it('reads only its own schema, so schemas dropped meanwhile by other runs cannot fail its migration', async () => {
    const other = uniqueSchema();
    const ours = uniqueSchema();
    const churn = new pg.Client({ connectionString: POSTGRES_URL });
    await churn.connect();
    let churning = true;
    // Another test run creating and dropping its schemas while ours migrates.
    const churned = (async () => {
      for (let i = 0; churning; i++) {
        const name = `${other}_${i}`;
        await churn.query(`CREATE SCHEMA "${name}"; CREATE TABLE "${name}".t (id serial PRIMARY KEY)`);
        await churn.query(`DROP SCHEMA "${name}" CASCADE`);
      }
    })();
    try {
      const db = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema: ours });
      try {
        for (let round = 0; round < 3; round++) await migrateToLatest(db);
        const tables = await db.kysely.introspection.getTables();
        expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([ours]));
        expect(tables.map((t) => t.name)).toContain('users');
      } finally {
        await db.close();
      }
    } finally {
      churning = false;
      await churned;
      await churn.end();
      await dropSchema(ours);
    }
  });
});
