// The upscale API group as one unit: its own error replies, the role guard, multipart parsing,
// the service with its engines, queue, result store and sweep, and the routes. The companion
// server mounts it under its prefix; server/upscale-main.ts runs it alone on its own host.
//
// How the work is done is chosen here once, when the group starts (as server/jobs/job-engine.ts
// chooses the job engine): on this process's engines, or, in team mode, through the job queue for
// the team's workers. The routes get the chosen UpscaleWork and never ask which it is.
import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { installAccessGuard, type Authenticator } from '../../http/access-guard.js';
import type { JobEngine } from '../../jobs/job-engine.js';
import { openBlobStore } from '../../storage/open-blob-store.js';
import { createSignedLinks, type SignedLinks } from '../../storage/signed-links.js';
import { featureCacheDir, sweepFeatureCacheDir } from '../../upscale/feature-cache-dir.js';
import { configuredEngineFactory } from './real-engine.js';
import { DurableReplays } from './durable-replays.js';
import { InProcessUpscales } from './in-process-upscale.js';
import { createInputStore, type InputStore } from './input-store.js';
import { createResultStore, type ResultStore } from './result-store.js';
import { UpscaleJobTable } from './team-jobs.js';
import { TeamUpscales } from './team-upscale.js';
import { upscaleJobHandlers, UpscaleWorkerPresence } from './team-upscale-jobs.js';
import type { EngineFactory } from './upscale-engine-port.js';
import { registerGraphRoutes } from './graph-routes.js';
import { installUpscaleErrorHandlers } from './upscale-error-handlers.js';
import { registerUpscaleRoutes } from './upscale-routes.js';
import { UpscaleService, type UpscaleServiceOptions } from './upscale-service.js';
import type { UpscaleWork } from './upscale-work.js';

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
  /**
   * Team mode (TEAM_MODE=true): uploads are stored and queued on this job engine for the workers;
   * with ROLE=all this process is one of them too, with ROLE=api it loads no engine.
   */
  team?: { jobs: JobEngine };
}

/** Jobs a worker's own engine queue lets wait (the job queue, not this, limits what it is given). */
const WORKER_LOCAL_QUEUE = 1_000;
/** How often finished answers past their lifetime leave the replay records. */
const REPLAY_SWEEP_MS = 600_000;

/** An API replica's engine slot: it runs nothing, the workers do. */
const noEngines: EngineFactory = () => ({
  listModels: () => Promise.reject(new Error('an API replica (ROLE=api) runs no upscale engines')),
  upscale: () => Promise.reject(new Error('an API replica (ROLE=api) runs no upscale engines')),
  close: async () => undefined,
});

function engineFactory(config: AppConfig, engines: EngineFactory | undefined): EngineFactory {
  return engines ?? configuredEngineFactory(config.upscale);
}

/** The service's settings every mode shares; engines and queue length are the mode's. */
function serviceSettings(
  config: AppConfig,
  o: { store: ResultStore; resultLinks: SignedLinks; now: () => Date },
): Omit<UpscaleServiceOptions, 'engines' | 'maxQueue'> {
  const c = config.upscale;
  return {
    concurrency: c.concurrency,
    maxPixels: c.maxPixels,
    maxInflightBytes: c.maxInflightBytes,
    resultTtlSeconds: c.resultTtlSeconds,
    dataDir: config.dataDir,
    store: o.store,
    resultLinks: o.resultLinks,
    now: o.now,
  };
}

/**
 * Team mode's upscale job kinds on the job engine, and on a process that runs them (`service`
 * given) the worker's heartbeat from ready until close. Every role registers the kinds: an API
 * replica enqueues and cancels them.
 */
function registerTeamUpscaleJobs(
  app: FastifyInstance,
  config: AppConfig,
  o: { jobs: JobEngine; db: Db; now: () => Date; replays: DurableReplays; service?: UpscaleService },
): { table: UpscaleJobTable; inputs: InputStore } {
  // A worker counts as live as long as the job engine counts it (WORKER_STALE_SECONDS): the same
  // row in the workers table, whose heartbeat the engine keeps.
  const table = new UpscaleJobTable(o.db.kysely, o.now, config.jobs.workerStaleSeconds * 1000);
  const inputs = createInputStore(openBlobStore(config));
  // The job engine's own id in team mode: one row per process in the workers table.
  const workerId = o.jobs.workerId ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
  const log: FastifyBaseLogger = app.log;
  for (const handler of upscaleJobHandlers({
    table,
    inputs,
    replays: o.replays,
    service: o.service,
    workerId,
    resultTtlSeconds: config.upscale.resultTtlSeconds,
    errorContext: { maxPixels: config.upscale.maxPixels, uploadLimitBytes: config.uploadLimitBytes },
    now: o.now,
    log,
  }))
    o.jobs.register(handler);
  if (o.service) {
    const presence = new UpscaleWorkerPresence({
      table,
      inputs,
      service: o.service,
      workerId,
      slots: config.upscale.concurrency,
      now: o.now,
      log,
    });
    app.addHook('onReady', async () => presence.start());
    app.addHook('preClose', async () => presence.stop());
  }
  app.addHook('onClose', async () => inputs.close());
  return { table, inputs };
}

/**
 * A worker process (ROLE=worker) in team mode: no routes, only the engines (UPSCALE_CONCURRENCY
 * slots of UPSCALE_THREADS), the shared result store and the upscale jobs it takes from the queue.
 */
export async function registerUpscaleWorker(
  app: FastifyInstance,
  config: AppConfig,
  o: { jobs: JobEngine; db: Db; now: () => Date; engines?: EngineFactory },
): Promise<UpscaleService> {
  await sweepFeatureCacheDir(featureCacheDir()).catch((error: unknown) => app.log.warn({ err: error }, 'feature cache sweep failed'));
  const store = createResultStore(openBlobStore(config));
  const resultLinks = createSignedLinks(
    config.jwtSecret,
    'upscaleResult',
    config.publicApi.upscale.replace(/\/+$/, ''),
    config.upscale.resultTtlSeconds,
  );
  const service = new UpscaleService({
    ...serviceSettings(config, { store, resultLinks, now: o.now }),
    engines: engineFactory(config, o.engines),
    // Not the admission rule here (the API replicas keep the team's): the queue hands this process at
    // most UPSCALE_CONCURRENCY jobs, and one more may arrive while an aborted run lets go of its engine.
    maxQueue: WORKER_LOCAL_QUEUE,
  });
  const replays = new DurableReplays(o.db.kysely, o.now, (outcome) => store.has(outcome.resultId));
  registerTeamUpscaleJobs(app, config, { jobs: o.jobs, db: o.db, now: o.now, replays, service });
  app.addHook('onClose', () => service.close());
  app.decorate('upscale', service);
  return service;
}

interface ChosenWork {
  service: UpscaleService;
  work: UpscaleWork;
}

interface WorkParts {
  store: ResultStore;
  resultLinks: SignedLinks;
  replays: DurableReplays;
}

/** The embedded default: this process's engines run every image, its queue admits them. */
function inProcessWork(config: AppConfig, o: UpscaleGroupOptions, parts: WorkParts): ChosenWork {
  const service = new UpscaleService({
    ...serviceSettings(config, { ...parts, now: o.now }),
    engines: engineFactory(config, o.engines),
    maxQueue: config.upscale.maxQueue,
  });
  const work = new InProcessUpscales({
    service,
    replays: parts.replays,
    resultTtlSeconds: config.upscale.resultTtlSeconds,
    now: o.now,
  });
  return { service, work };
}

/** Team mode: images are queued for the workers and the team's rule admits them (TeamUpscales). */
function teamWork(app: FastifyInstance, config: AppConfig, o: UpscaleGroupOptions, jobs: JobEngine, parts: WorkParts): ChosenWork {
  const c = config.upscale;
  const service = new UpscaleService({
    ...serviceSettings(config, { ...parts, now: o.now }),
    engines: config.role === 'api' ? noEngines : engineFactory(config, o.engines),
    maxQueue: WORKER_LOCAL_QUEUE,
    // `team` is made below, before any upload can reach the budget that asks it.
    uploadsBusy: () => team.full(),
  });
  const { table, inputs } = registerTeamUpscaleJobs(app, config, {
    jobs,
    db: o.db,
    now: o.now,
    replays: parts.replays,
    // ROLE=all in team mode: this process is a worker too.
    ...(config.role === 'all' ? { service } : {}),
  });
  const team = new TeamUpscales({
    db: o.db.kysely,
    jobs,
    table,
    inputs,
    replays: parts.replays,
    maxQueuePerWorker: c.maxQueue,
    maxPixels: c.maxPixels,
    now: o.now,
    log: app.log,
  });
  return { service, work: team };
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
  const resultLinks = createSignedLinks(config.jwtSecret, 'upscaleResult', o.prefix, c.resultTtlSeconds);
  const store = createResultStore(openBlobStore(config));
  // Finished answers kept in the database, so a resend after a restart or to another replica does
  // not run the model again.
  const replays = new DurableReplays(o.db.kysely, o.now, (outcome) => store.has(outcome.resultId));
  const parts: WorkParts = { store, resultLinks, replays };
  const { service, work } = o.team ? teamWork(app, config, o, o.team.jobs, parts) : inProcessWork(config, o, parts);

  service.startSweeper((error) => app.log.warn({ err: error }, 'upscale result sweep failed'));
  const sweepReplays = () => void replays.sweep().catch(() => undefined);
  sweepReplays();
  const replaySweeper = setInterval(sweepReplays, REPLAY_SWEEP_MS);
  replaySweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(replaySweeper);
    await service.close();
  });
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
        work,
        service,
        resultLinks,
        now: o.now,
        uploadLimitBytes: config.uploadLimitBytes,
        maxPixels: c.maxPixels,
        maxBatchFiles: c.maxBatchFiles,
        linkBase,
      });
      registerGraphRoutes(group, {
        modelsDir: c.modelsDir,
        knownModel: async (name) => (await work.listModels()).some((m) => m.name === name),
      });
    },
    { prefix: o.prefix },
  );
  return service;
}
