// Starts the upscale service alone (`npm run start:upscale`) on UPSCALE_PORT, for a separate
// upscale host. Point the PWA at it with UPSCALE_URL=http(s)://that-host:port on the main server.
import { ConfigError, loadConfig } from './config.js';
import { closeOnSignals } from './close-on-signals.js';
import { buildUpscaleApp } from './modules/upscale/upscale-app.js';
import { ensureModels } from './upscale/model-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // Fetches the Real-CUGAN weights once (integrity-checked) if they are not cached yet.
  await ensureModels(config.upscale.modelsDir, (msg) => process.stdout.write(`  ${msg}\n`));
  const app = await buildUpscaleApp(config);
  const address = await app.listen({ port: config.upscale.port, host: config.host });
  process.stdout.write(
    `\n  Loom Studio upscale service is running at ${address.replace('[::1]', 'localhost')}\n` +
      `  Models: ${config.upscale.modelsDir}  Queue: ${config.upscale.concurrency} running, ${config.upscale.maxQueue} waiting\n\n`,
  );
  closeOnSignals(app);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else
    process.stderr.write(
      `The upscale service could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  process.exit(1);
});
