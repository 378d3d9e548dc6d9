// Starts the whole workspace: configuration, database migration, the first administrator, and one
// HTTP port serving the PWA and every API group.
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { ensureAdmin } from './modules/users/ensure-admin.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  const seed = await ensureAdmin(config, app.services);
  const address = await app.listen({ port: config.port, host: config.host });
  const url = address.replace('[::1]', 'localhost');
  const lines = [
    '',
    `  Loom Studio is running at ${url}`,
    `  Database: ${config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL'}`,
  ];
  if (seed.generatedPassword) {
    lines.push(
      `  First administrator created — account: ${seed.account}  password: ${seed.generatedPassword}`,
      '  (shown once; change it in Settings, or set ADMIN_ACCOUNT / ADMIN_PASSWORD)',
    );
  } else if (seed.account) {
    lines.push(`  Sign in as ${seed.account}${config.admin?.password ? ' with ADMIN_PASSWORD' : ''}.`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Loom Studio could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
