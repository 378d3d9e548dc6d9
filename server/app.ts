// buildApp(config) → a ready Fastify instance: hardening, /config.json, every API group under its
// prefix, and the built PWA at /. Tests use it with inject() and real ports; main.ts listens.
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import type { AppConfig } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createAuthenticator, installAccessGuard } from './http/access-guard.js';
import { installEnvelopeErrors } from './http/envelope-errors.js';
import { installNulGuard } from './http/nul-guard.js';
import { collectOpenApi } from './http/openapi.js';
import { pwaInlineScriptHashes } from './http/inline-scripts.js';
import type { UploadBudget } from './http/upload-budget.js';
import { registerAuthRoutes } from './modules/auth/auth-routes.js';
import { registerUsersRoutes } from './modules/users/users-routes.js';
import { registerPromptsRoutes } from './modules/prompts/prompts-routes.js';
import { registerUpscaleGroup, registerUpscaleWorker } from './modules/upscale/upscale-group.js';
import type { EngineFactory } from './modules/upscale/upscale-engine-port.js';
import type { JobEngine } from './jobs/job-engine.js';
import { createWorkshopUpscale } from './modules/upscale/workshop-upscale.js';
import { createGenerationModule, type GenerationOverrides } from './modules/generation/generation-module.js';
import { registerHistoryRoutes } from './modules/generation/history/history-routes.js';
import { registerImageGroup } from './modules/generation/image-group.js';
import { configuredProviders } from './modules/generation/engines/registry-providers.js';
import { registerVideoRoutes } from './modules/generation/videos/video-routes.js';
import { registerEnginesRoute } from './modules/generation/engines/engines-route.js';
import { registerThirdGroup, registerWorkshopJobs } from './modules/workshop/third-group.js';
import { registerFileRoutes } from './storage/file-routes.js';
import { createUploadsModule, tusEndpointUrl } from './modules/uploads/uploads-module.js';
import { createCollectionsModule, registerCollectionRoutes } from './modules/collections/collections-module.js';
import { sweepRenderFolders } from './providers/local/render-folders.js';
import { createServices, type ServiceOverrides, type Services } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    db: Db;
    /** The image and workshop groups' upload budget (GENERATION_MAX_INFLIGHT_BYTES). */
    generationUploads: UploadBudget;
    /** The job engine: the in-process runner, or pg-boss in team mode. */
    jobs: JobEngine;
  }
}

export interface BuildOptions extends ServiceOverrides {
  /** Use this database instead of opening the configured one (it is not closed with the app). */
  db?: Db;
  /** Providers and job runner settings of the generation service (tests pass their own). */
  generation?: GenerationOverrides;
  /** Where the log's JSON lines go instead of stdout (tests read what was logged). */
  logStream?: { write(line: string): void };
  /** The upscale engines instead of Real-CUGAN's (tests count or hold their runs). */
  upscaleEngines?: EngineFactory;
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    routerOptions: { ignoreTrailingSlash: true },
    // TLS_CERT_FILE / TLS_KEY_FILE: HTTPS without a proxy, so tablets get a secure context.
    https: config.tls ?? null,
  });

  const db = options.db ?? (await openDatabase(config.database));
  if (!options.db) app.addHook('onClose', () => db.close());
  await migrateToLatest(db);
  const services = createServices(config, db, app.log, options);
  app.decorate('db', db);
  app.decorate('services', services);

  // Unknown paths anywhere answer with the envelope too; API groups may set their own handlers.
  installEnvelopeErrors(app);
  // Every route, every group: a NUL character in a request's text is a 400 on either database.
  installNulGuard(app);
  // Before any route: the OpenAPI document is collected as routes register.
  const openapi = collectOpenApi(app, { title: 'Loom Studio companion server', version: '1.0.0' });

  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // wasm-unsafe-eval: the on-device upscaler runs WebAssembly. The one inline script, the
        // PWA's boot script in index.html, is allowed by its hash (server/http/inline-scripts.ts).
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...pwaInlineScriptHashes(config.staticDir)],
        // Toast and dialog libraries inject <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", ...externalOrigins(config)],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Both added per request below, only over HTTPS.
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: false,
    // Cross-origin isolation (with helmet's default COOP same-origin): SharedArrayBuffer for the
    // on-device upscaler's WebAssembly threads. require-corp, not credentialless, because iPad
    // Safari knows only require-corp. Every subresource the pages load is same-origin (img-src and
    // media-src above); the upscale group's result links, shown by a PWA on another host when that
    // service runs on its own, say cross-origin themselves.
    crossOriginEmbedderPolicy: { policy: 'require-corp' },
  });
  // Over plain HTTP (a tablet opening http://<laptop-ip>:8080 on the fair's LAN) these two would
  // make the browser fetch the scripts over https, which nothing answers: a blank page. Over HTTPS
  // (TLS here, or a proxy's X-Forwarded-Proto with TRUST_PROXY) they keep the page on https.
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol !== 'https') return;
    void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string') void reply.header('content-security-policy', `${csp};upgrade-insecure-requests`);
  });
  await app.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    // Beyond the plugin's GET, HEAD and POST: the API's PUT and DELETE, and tus's PATCH.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    credentials: false,
  });

  // Resumable uploads (tus), where this server takes API requests: the multipart calls may then
  // name a finished upload instead of sending its file.
  const uploads = config.uploads.tus && config.role !== 'worker' ? createUploadsModule({ config, db, log: app.log, now: services.now }) : undefined;
  if (uploads) {
    app.decorate('uploads', uploads);
    app.decorate('uploadReferences', uploads.references);
    app.addHook('onReady', async () => uploads.sweep.start());
    app.addHook('preClose', async () => uploads.sweep.stop());
    app.addHook('onClose', async () => uploads.close());
  }

  const configDoc = {
    config: {
      openapi: {
        summary: "The PWA's runtime settings: each API group's base URL, and uploads.tus (the tus endpoint) where this server takes resumable uploads",
        tags: ['config'],
      },
    },
  };
  app.get('/config.json', configDoc, async (_request, reply) => {
    void reply.header('cache-control', 'no-cache');
    return {
      api: config.publicApi,
      ...(uploads ? { uploads: { tus: tusEndpointUrl(config.publicApi.main) } } : {}),
      version: '1.0.0',
    };
  });

  app.get('/openapi.json', async () => openapi.document());

  const authenticator = createAuthenticator(services.accessTokens, services.users);
  const mainPrefix = mainApiPrefix(config.publicApi.main);
  // Generation jobs run in this process from ready until close (preClose: before the database closes);
  // in team mode an API replica (ROLE=api) starts the engine without taking jobs.
  // The workshop's built-in engine enlarges with our Real-CUGAN engine (started on first use).
  const workshopUpscale = createWorkshopUpscale({
    modelsDir: config.upscale.modelsDir,
    threads: config.upscale.threads,
    maxPixels: config.upscale.maxPixels,
    memoryBudgetBytes: config.upscale.memoryBudgetBytes,
    winograd: config.upscale.winograd,
  });
  app.addHook('onClose', async () => workshopUpscale.close());
  const localOptions = {
    upscale: workshopUpscale.upscale,
    onUpscaleFallback: (error: unknown) => app.log.warn({ err: error }, 'workshop upscale failed; lanczos stood in'),
    ...options.generation?.local,
  };
  const generation = createGenerationModule({
    config,
    db,
    log: app.log,
    now: services.now,
    linkPrefix: mainPrefix,
    providers: options.generation?.providers ?? configuredProviders(config, localOptions),
    runner: options.generation?.runner,
    team: options.generation?.team,
  });
  // Collection mode drives the same jobs: its hooks and its pick job are in place before the engine starts.
  const collections = createCollectionsModule(generation);
  app.decorate('generationUploads', generation.uploads);
  app.decorate('jobs', generation.runner);
  // Before any render of this process: the scratch folders of renders killed mid-way are removed.
  app.addHook('onReady', async () => {
    const removed = await sweepRenderFolders().catch((error: unknown) => void app.log.warn({ err: error }, 'render folder sweep failed'));
    if (removed?.length) app.log.info({ folders: removed.length }, 'removed the scratch folders of video renders that were killed');
  });
  app.addHook('onReady', async () => generation.runner.start());
  // Not awaited: a ComfyUI box still booting must not hold the server's start.
  app.addHook('onReady', async () => void generation.engines.run());
  app.addHook('preClose', async () => generation.runner.stop());
  app.addHook('onClose', async () => generation.files.close());
  await app.register(
    async (main) => {
      installEnvelopeErrors(main);
      installAccessGuard(main, 'main', mainPrefix, authenticator);
      registerAuthRoutes(main, services.auth);
      registerUsersRoutes(main, services.usersAdmin);
      registerPromptsRoutes(main, services.prompts);
      registerHistoryRoutes(main, generation);
      registerVideoRoutes(main, generation);
      registerCollectionRoutes(main, collections);
      registerEnginesRoute(main, generation);
      registerFileRoutes(main, { files: generation.files, links: generation.links, now: services.now });
      uploads?.register(main, mainPrefix);
    },
    { prefix: mainPrefix },
  );

  // The upscale group lives here when UPSCALE_URL is a path; a full URL means its own host. A
  // worker (ROLE=worker) serves no API, so it has none: in team mode it runs the upscale jobs the
  // API replicas queue (TEAM_MODE=true sends every upscale through the job engine).
  const team = config.jobs.engine === 'pgboss' ? { jobs: generation.runner } : undefined;
  if (config.publicApi.upscale.startsWith('/') && config.role !== 'worker') {
    await registerUpscaleGroup(app, config, {
      prefix: config.publicApi.upscale.replace(/\/+$/, ''),
      authenticator,
      db,
      now: services.now,
      absoluteLinks: false,
      ...(options.upscaleEngines ? { engines: options.upscaleEngines } : {}),
      ...(team ? { team } : {}),
    });
  } else if (config.publicApi.upscale.startsWith('/') && team) {
    await registerUpscaleWorker(app, config, {
      jobs: team.jobs,
      db,
      now: services.now,
      ...(options.upscaleEngines ? { engines: options.upscaleEngines } : {}),
    });
  }

  // The image and third groups live here when their URLs are paths, like the upscale group.
  if (config.publicApi.image.startsWith('/')) {
    await registerImageGroup(app, { prefix: config.publicApi.image.replace(/\/+$/, ''), authenticator, generation });
  }
  if (config.publicApi.third.startsWith('/')) {
    await registerThirdGroup(app, { prefix: config.publicApi.third.replace(/\/+$/, ''), authenticator, generation });
  } else {
    // Queued workshop items still run here.
    registerWorkshopJobs(generation);
  }

  await servePwa(app, config.staticDir);
  return app;
}

/**
 * Where this server mounts the main group: MAIN_API_URL's path when it is a path; when it is
 * another host's URL, still under /api, so this server can be that host (behind a proxy) too.
 */
function mainApiPrefix(main: string): string {
  return main.startsWith('/') ? main.replace(/\/+$/, '') || '/api' : '/api';
}

function externalOrigins(config: AppConfig): string[] {
  return Object.values(config.publicApi)
    .filter((u) => /^https?:\/\//.test(u))
    .map((u) => new URL(u).origin);
}

async function servePwa(app: FastifyInstance, staticDir: string): Promise<void> {
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    app.log.warn({ staticDir }, 'no built PWA found; run `npm run build` to serve it');
    return;
  }
  await app.register(fastifyStatic, {
    root: staticDir,
    index: ['index.html'],
    // The build writes .br and .gz beside each text asset (scripts/vite-precompress.ts).
    preCompressed: true,
    // Source maps would publish the readable source; a build that still emits them stays private.
    allowedPath: (pathname) => !/\.map$/i.test(pathname),
    setHeaders(reply, filePath) {
      // Hashed build assets never change; the shell, the worker and the manifest must revalidate.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      void reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
