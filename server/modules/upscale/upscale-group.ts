// The upscale API group as one unit: its own error replies, the role guard, multipart parsing,
// the service with its engines, queue, result store and sweep, and the routes. The companion
// server mounts it under its prefix; server/upscale-main.ts runs it alone on its own host.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { installAccessGuard, type Authenticator } from '../../http/access-guard.js';
import { featureCacheDir, sweepFeatureCacheDir } from '../../upscale/feature-cache-dir.js';
import { realEngineFactory } from './real-engine.js';
import { createResultStore } from './result-store.js';
import { createSignedUrls } from './signed-urls.js';
import type { EngineFactory } from './upscale-engine-port.js';
import { registerGraphRoutes } from './graph-routes.js';
import { installUpscaleErrorHandlers } from './upscale-error-handlers.js';
import { registerUpscaleRoutes } from './upscale-routes.js';
import { UpscaleService } from './upscale-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The upscale service, when this instance hosts the upscale group. */
    upscale?: UpscaleService;
  }
}

export interface UpscaleGroupOptions {
  /** '' when the service has its own host, else the path part of UPSCALE_URL. */
  prefix: string;
  authenticator: Authenticator;
  /** Holds the replay records of keyed upscales. */
  db: Db;
  now: () => Date;
  /** Result links as absolute URLs (a separate host) or paths on the PWA's origin. */
  absoluteLinks: boolean;
  /** Defaults to the Real-CUGAN engine; tests that must hold a job pass their own. */
  engines?: EngineFactory;
}

export async function registerUpscaleGroup(
  app: FastifyInstance,
  config: AppConfig,
  o: UpscaleGroupOptions,
): Promise<UpscaleService> {
  const c = config.upscale;
  // Before any job runs: the spill files of engines killed mid-job (kill -9, a crash) are removed.
  await sweepFeatureCacheDir(featureCacheDir()).then(
    (removed) => {
      if (removed.length > 0) app.log.info({ removed }, 'removed feature cache files of stopped processes');
    },
    (error: unknown) => app.log.warn({ err: error }, 'feature cache sweep failed'),
  );
  const signedUrls = createSignedUrls(config.jwtSecret, o.prefix);
  const service = new UpscaleService({
    engines:
      o.engines ??
      realEngineFactory({
        modelsDir: c.modelsDir,
        threads: c.threads,
        concurrency: c.concurrency,
        maxPixels: c.maxPixels,
      }),
    concurrency: c.concurrency,
    maxQueue: c.maxQueue,
    maxPixels: c.maxPixels,
    maxInflightBytes: c.maxInflightBytes,
    resultTtlSeconds: c.resultTtlSeconds,
    dataDir: config.dataDir,
    store: createResultStore(config.storage, config.dataDir),
    signedUrls,
    now: o.now,
  });
  service.startSweeper((error) => app.log.warn({ err: error }, 'upscale result sweep failed'));
  app.addHook('onClose', () => service.close());
  app.decorate('upscale', service);

  const linkBase = o.absoluteLinks
    ? (request: FastifyRequest) => `${request.protocol}://${request.host}`
    : () => '';
  await app.register(
    async (group) => {
      installUpscaleErrorHandlers(group, {
        maxPixels: c.maxPixels,
        uploadLimitBytes: config.uploadLimitBytes,
      });
      installAccessGuard(group, 'upscale', o.prefix, o.authenticator);
      await group.register(multipart, { throwFileSizeLimit: false });
      registerUpscaleRoutes(group, {
        service,
        db: o.db,
        signedUrls,
        now: o.now,
        uploadLimitBytes: config.uploadLimitBytes,
        maxPixels: c.maxPixels,
        maxBatchFiles: c.maxBatchFiles,
        resultTtlSeconds: c.resultTtlSeconds,
        linkBase,
      });
      registerGraphRoutes(group, {
        modelsDir: c.modelsDir,
        knownModel: async (name) => (await service.listModels()).some((m) => m.name === name),
      });
    },
    { prefix: o.prefix },
  );
  return service;
}
