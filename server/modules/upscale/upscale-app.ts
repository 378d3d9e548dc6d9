// The upscale group alone in its own Fastify instance, for a separate upscale host. It verifies
// the main server's access tokens (same JWT secret: JWT_SECRET, or the same DATA_DIR) and reads
// user rows from the same database, so roles and disabled accounts apply here at once.
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.js';
import { openDatabase, type Db } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { createAuthenticator } from '../../http/access-guard.js';
import { createAccessTokens } from '../auth/access-tokens.js';
import { createUsersRepository } from '../users/users-repository.js';
import type { EngineFactory } from './upscale-engine-port.js';
import { sendUpscaleError } from './upscale-error-handlers.js';
import { toUpscaleHttpError } from './upscale-http-error.js';
import { registerUpscaleGroup } from './upscale-group.js';

export interface UpscaleAppOptions {
  /** Use this database instead of opening the configured one (not closed with the app). */
  db?: Db;
  engines?: EngineFactory;
  now?: () => Date;
}

export async function buildUpscaleApp(
  config: AppConfig,
  o: UpscaleAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (a malformed URL) keep the service's reply shape too.
    frameworkErrors: (error, request, reply) =>
      sendUpscaleError(
        request,
        reply,
        toUpscaleHttpError(error, {
          maxPixels: config.upscale.maxPixels,
          uploadLimitBytes: config.uploadLimitBytes,
        }),
      ),
  });
  const now = o.now ?? (() => new Date());
  const db = o.db ?? (await openDatabase(config.database));
  if (!o.db) app.addHook('onClose', () => db.close());
  // Idempotent; lets this host start before (or without) the main server on a fresh database.
  await migrateToLatest(db);
  const authenticator = createAuthenticator(
    createAccessTokens(config.jwtSecret, config.accessTokenTtlSeconds, now),
    createUsersRepository(db.kysely, now),
  );
  // The PWA is served from another origin: it needs CORS for the API and the result links.
  await app.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    credentials: false,
    // DELETE: the queue's Cancel stops a keyed job (DELETE /upscale/jobs/:key) at once.
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    exposedHeaders: [
      'retry-after',
      'content-disposition',
      'upscale-idempotency',
      'idempotency-key',
      'idempotent-replayed',
    ],
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  await registerUpscaleGroup(app, config, {
    prefix: '',
    authenticator,
    db,
    now,
    absoluteLinks: true,
    ...(o.engines ? { engines: o.engines } : {}),
  });
  return app;
}
