// How a server process stops: on SIGINT or SIGTERM its app closes (the close hooks hand running
// work back and end connections), then the process exits.
import type { FastifyInstance } from 'fastify';

/**
 * How long a repeat of the stop signal counts as the same stop. One stop often arrives twice at
 * once: Ctrl+C reaches every process of the terminal's group, the server and the process that
 * started it (scripts/server-process.mjs), which passes it on too; a service manager may signal
 * the whole group. Past this, the signals' default action is back: asked again, the process ends
 * at once.
 */
export const REPEAT_WINDOW_MS = 1000;

export function closeOnSignals(app: Pick<FastifyInstance, 'close' | 'log'>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }, REPEAT_WINDOW_MS).unref();
    app.log.info({ signal }, 'shutting down');
    void app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutting down failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
