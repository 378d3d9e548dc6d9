// One Kysely instance over SQLite (embedded default) or PostgreSQL (DATABASE_URL).
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type DatabaseIntrospector } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { AppConfig } from '../config.js';
import { ensurePrivateFile, tightenFile } from '../private-files.js';
import { OneSchemaIntrospector } from './one-schema-introspector.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema the connections use (search_path), when one is configured. */
  schema?: string;
  close(): Promise<void>;
}

export async function openDatabase(database: AppConfig['database']): Promise<Db> {
  if (database.kind === 'sqlite') {
    // SQLite creates the -wal and -shm files with the database file's mode, so 0600 here covers
    // them; ones left looser by an older run are tightened too.
    if (database.file !== ':memory:') {
      ensurePrivateFile(database.file);
      for (const suffix of ['-wal', '-shm', '-journal']) tightenFile(`${database.file}${suffix}`);
    }
    const sqlite = new SQLite(database.file);
    // WAL lets readers continue while a write commits; foreign keys are off by default in SQLite.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
  }
  const schema = database.schema;
  if (schema) {
    // Create the schema before the pool starts pointing search_path at it.
    const client = new pg.Client({ connectionString: database.url });
    // A database that goes away meanwhile fails the start (the query rejects), not with an unheard 'error'.
    client.on('error', () => undefined);
    await client.connect();
    try {
      // Held while creating: several processes starting at once on a new schema would otherwise
      // race inside CREATE SCHEMA IF NOT EXISTS and one of them fail on a duplicate key.
      await client.query(`SELECT pg_advisory_lock(hashtext('loom-schema:' || $1))`, [schema]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  // An idle connection the database closed (a restart, a failover, an administrator) is reported
  // here and dropped by the pool; the next query opens a new one. Unheard, the event crashed the
  // whole process.
  pool.on('error', (error) => {
    process.stderr.write(`PostgreSQL closed an idle connection (${error.message}); it will be replaced.\n`);
  });
  // A connection the pool has lent out (a transaction between two queries) has no pool listener:
  // its 'error' crashed the process when the database went away under a busy server. Heard here,
  // it fails the query that runs or comes next (a database-unavailable error, answered 503), and
  // the pool drops the broken connection when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const kysely = new Kysely<Database>({
    dialect: new OneSchemaPostgresDialect(schema ?? 'public', {
      pool,
      onCreateConnection: async (conn) => {
        if (schema) await conn.executeQuery(CompiledQuery.raw(`SET search_path TO "${schema}"`));
      },
    }),
  });
  return { kysely, dialect: 'postgres', ...(schema ? { schema } : {}), close: () => kysely.destroy() };
}

/** PostgreSQL whose introspection (the migrator's "do my tables exist") reads only our schema. */
class OneSchemaPostgresDialect extends PostgresDialect {
  constructor(
    private readonly schema: string,
    config: ConstructorParameters<typeof PostgresDialect>[0],
  ) {
    super(config);
  }

  // Kysely's own signature: the introspector is handed the untyped instance.
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OneSchemaIntrospector(db, this.schema);
  }
}
