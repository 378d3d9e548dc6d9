// Builds the generation service over one database: file store, signed links, views, the job
// engine with every generation job kind (the in-process runner, or pg-boss in team mode), and the
// providers. The engine starts when the app is ready and hands its running jobs back when the app
// closes.
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { createIdempotencyStore } from '../../http/idempotency-store.js';
import { UploadBudget } from '../../http/upload-budget.js';
import { createJobEngine, type JobEngine, type RunnerOverrides, type TeamOverrides } from '../../jobs/job-engine.js';
import { createFileStore } from '../../storage/file-store.js';
import { openBlobStore } from '../../storage/open-blob-store.js';
import { createSignedLinks } from '../../storage/signed-links.js';
import { MAX_UPLOAD_PIXELS } from '../../storage/upload-check.js';
import { analysisJob } from './analysis/analysis-job.js';
import { candidatesJob } from './analysis/candidates-job.js';
import type { GenerationContext } from './generation-context.js';
import type { LocalProviderOptions } from '../../providers/local/index.js';
import type { GenerationProviders } from './engines/generation-providers.js';
import { createGenerationRepository } from './store/generation-repository.js';
import { generationDb } from './store/generation-tables.js';
import { createViewBuilder } from './generation-views.js';
import { regenerateJob } from './analysis/regenerate-job.js';
import { videoJob } from './videos/video-job.js';
import { videoPromptsJob } from './video-prompts/video-prompts-job.js';
import { createEngineChecks, type EngineChecks } from './engines/engine-checks.js';

/** How long a signed file link works (a history page opened now still shows its images tomorrow). */
export const FILE_LINK_TTL_SECONDS = 24 * 3600;

/** Retry-After of an upload refused while others fill the upload budget: they are read in seconds. */
export const UPLOADS_BUSY_RETRY_SECONDS = 5;

export interface GenerationOverrides {
  /** Instead of the configured providers (tests pass a double). */
  providers?: GenerationProviders;
  /** Settings of the built-in engine (tests: no pauses, small fast videos). */
  local?: LocalProviderOptions;
  /** Faster polls and backoff for tests. */
  runner?: RunnerOverrides;
  /** Team mode's expiry and maintenance pace (tests make a dead worker's job come back quickly). */
  team?: TeamOverrides;
}

export interface GenerationModule extends GenerationContext {
  runner: JobEngine;
  /** The providers' setup checks: run once the app is ready, their findings logged and kept for the settings page. */
  engines: EngineChecks;
}

export function createGenerationModule(o: {
  config: AppConfig;
  db: Db;
  log: FastifyBaseLogger;
  now: () => Date;
  /** Where file links point: the main group's prefix. */
  linkPrefix: string;
  providers: GenerationProviders;
  runner?: GenerationOverrides['runner'];
  team?: GenerationOverrides['team'];
}): GenerationModule {
  const db = generationDb(o.db.kysely);
  const repo = createGenerationRepository(db, o.now);
  const links = createSignedLinks(o.config.jwtSecret, 'storedFile', o.linkPrefix, FILE_LINK_TTL_SECONDS);
  const runner = createJobEngine({ config: o.config, db: o.db, jobDb: db, log: o.log, now: o.now, runner: o.runner, team: o.team });
  const ctx: GenerationModule = {
    db,
    baseDb: o.db.kysely,
    idempotency: createIdempotencyStore(o.db.kysely, o.now),
    repo,
    files: createFileStore(db, openBlobStore(o.config), o.now),
    links,
    views: createViewBuilder(repo, links, o.now, db),
    jobs: runner,
    runner,
    providers: o.providers,
    now: o.now,
    log: o.log,
    uploadLimits: { maxBytes: o.config.uploadLimitBytes, maxPixels: MAX_UPLOAD_PIXELS },
    uploads: new UploadBudget(
      o.config.generationMaxInflightBytes,
      () => new AppError(503, 'uploads_busy', { retryAfterSeconds: UPLOADS_BUSY_RETRY_SECONDS }),
    ),
    engines: createEngineChecks(o.providers.setupChecks ?? [], o.log),
  };
  for (const handler of [analysisJob, candidatesJob, regenerateJob, videoPromptsJob, videoJob]) {
    runner.register(handler(ctx));
  }
  return ctx;
}
