// The settings every in-process test server starts from: its data folder, no log lines, its
// admin, no PWA build to serve, and the cheapest argon2id cost (the suites check behaviour; the
// sign-in benchmark checks the real cost). Team mode's adds the shared database and pg-boss schema.
import path from 'node:path';

export function testServerEnv(dataDir: string, admin: { account: string; password: string }): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_ACCOUNT: admin.account,
    ADMIN_PASSWORD: admin.password,
    STATIC_DIR: path.join(dataDir, 'no-pwa'),
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
  };
}

/** A team-mode process of `role` on one PostgreSQL database: the app's schema and pg-boss's. */
export function teamServerEnv(role: 'api' | 'worker', db: { url: string; schema: string; bossSchema: string }): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    DATABASE_SCHEMA: db.schema,
    TEAM_MODE: 'true',
    ROLE: role,
    PGBOSS_SCHEMA: db.bossSchema,
  };
}
