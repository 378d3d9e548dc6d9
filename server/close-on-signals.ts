// How a server process stops: on SIGINT or SIGTERM its app closes (the close hooks hand running
// work back and end connections), then the process exits.
import type { FastifyInstance } from 'fastify';

export function closeOnSignals(app: FastifyInstance): void {
  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
