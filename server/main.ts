// Starts the whole workspace: configuration, database migration, the first administrator, and one
// HTTP port serving the PWA and every API group. In team mode a worker (ROLE=worker) runs jobs and
// opens no port; it stops on SIGINT/SIGTERM, handing its running jobs back.
import { buildApp } from './app.js';
import { closeOnSignals } from './close-on-signals.js';
import { ConfigError, loadConfig } from './config.js';
import { ensureAdmin } from './modules/users/ensure-admin.js';
import { ensureModels } from './upscale/model-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // The upscale group runs in this process unless UPSCALE_URL points at another host: make sure
  // the Real-CUGAN weights are here (fetched once, integrity-checked). Without them the rest of the
  // workspace still starts; the upscale calls then say the models are missing. In team mode a
  // worker runs the upscale jobs with them, and an API replica serves them to devices (the graphs
  // the PWA's on-device upscaler runs) without loading an engine.
  if (config.publicApi.upscale.startsWith('/')) {
    await ensureModels(config.upscale.modelsDir, (msg) => process.stdout.write(`  ${msg}\n`)).catch((error: unknown) => {
      process.stderr.write(
        `  Real-CUGAN models unavailable (${error instanceof Error ? error.message : String(error)}); upscaling is off until \`npm run models:fetch\` succeeds.\n`,
      );
    });
  }
  const app = await buildApp(config);
  closeOnSignals(app);
  if (config.role === 'worker') {
    await app.ready();
    process.stdout.write(`\n  Loom Studio worker is running generation and upscale jobs (pg-boss schema ${config.jobs.schema}); no HTTP port.\n\n`);
    return;
  }
  // Only a process that serves the API makes the first administrator (and can show its password).
  const seed = await ensureAdmin(config, app.services);
  const address = await app.listen({ port: config.port, host: config.host });
  const url = address.replace('[::1]', 'localhost');
  const lines = [
    '',
    `  Loom Studio is running at ${url}`,
    `  Database: ${config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL'}`,
    ...(config.role === 'api' ? ['  Role: api (jobs run on the workers)'] : []),
  ];
  if (seed.generatedPassword) {
    lines.push(
      `  First administrator created — account: ${seed.account}  password: ${seed.generatedPassword}`,
      '  (shown once; change it in Settings, or set ADMIN_ACCOUNT / ADMIN_PASSWORD)',
    );
  } else if (seed.account) {
    lines.push(`  Sign in as ${seed.account}${config.admin?.password ? ' with ADMIN_PASSWORD' : ''}.`);
  }
  if (!config.tls && !config.trustProxy && !['127.0.0.1', 'localhost', '::1'].includes(config.host)) {
    // Browsers allow a service worker only on https or localhost: tell whoever opens it from a tablet.
    lines.push(
      '  Over plain http from another device the app works online only (no offline mode, no install);',
      '  see "Serving the PWA to tablets on a LAN" in README.md for HTTPS (TLS_CERT_FILE / TLS_KEY_FILE).',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Loom Studio could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
