// The databases every integration suite runs against: SQLite always, PostgreSQL when a server
// answers at TEST_DATABASE_URL (default 127.0.0.1:5432/test). Each run gets its own schema.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

async function postgresAnswers(): Promise<string | null> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgresProblem = await postgresAnswers();
if (postgresProblem) {
  // Printed so a skipped PostgreSQL run is never silent.
  console.warn(`PostgreSQL suites skipped: no server answers at ${POSTGRES_URL} (${postgresProblem})`);
}

export type DatabaseKind = 'sqlite' | 'postgres';
export const databaseKinds: { kind: DatabaseKind; skip: boolean }[] = [
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: postgresProblem !== null },
];

export function uniqueSchema(): string {
  return `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
