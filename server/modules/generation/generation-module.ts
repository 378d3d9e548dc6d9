// Builds the generation service over one database: file store, signed links, views, the job
// runner with every generation job kind, and the providers. The runner starts when the app is
// ready and hands its running jobs back to the table when the app closes.
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { DEFAULT_RUNNER_OPTIONS, JobRunner, type JobRunnerOptions } from '../../jobs/job-runner.js';
import { installationId } from '../../jobs/lease-owner.js';
import { createDiskFileStore } from '../../storage/disk-file-store.js';
import { createFileLinks } from '../../storage/signed-file-links.js';
import { MAX_UPLOAD_PIXELS } from '../../storage/upload-check.js';
import { analysisJob } from './analysis-job.js';
import { candidatesJob } from './candidates-job.js';
import type { GenerationContext } from './generation-context.js';
import type { LocalProviderOptions } from '../../providers/local/index.js';
import type { GenerationProviders } from './generation-providers.js';
import { createGenerationRepository } from './generation-repository.js';
import { generationDb } from './generation-tables.js';
import { createViewBuilder } from './generation-views.js';
import { regenerateJob } from './regenerate-job.js';
import { videoJob } from './video-job.js';
import { videoPromptsJob } from './video-prompts-job.js';

/** How long a signed file link works (a history page opened now still shows its images tomorrow). */
export const FILE_LINK_TTL_SECONDS = 24 * 3600;

export interface GenerationOverrides {
  /** Instead of the configured providers (tests pass a double). */
  providers?: GenerationProviders;
  /** Settings of the built-in engine (tests: no pauses, small fast videos). */
  local?: LocalProviderOptions;
  /** Faster polls and backoff for tests. */
  runner?: Partial<Omit<JobRunnerOptions, 'db' | 'now' | 'log'>>;
}

export interface GenerationModule extends GenerationContext {
  runner: JobRunner;
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
}): GenerationModule {
  const db = generationDb(o.db.kysely);
  const repo = createGenerationRepository(db, o.now);
  const links = createFileLinks(o.config.jwtSecret, o.linkPrefix, FILE_LINK_TTL_SECONDS);
  const runner = new JobRunner({
    ...DEFAULT_RUNNER_OPTIONS,
    // Leases of this server's earlier run (same host and data folder) are taken back at start.
    installation: installationId(o.config.dataDir),
    ...o.runner,
    fairShare: { maxWaitingPerUser: o.config.jobMaxWaitingPerUser, ...o.runner?.fairShare },
    db,
    now: o.now,
    log: o.log,
  });
  const ctx: GenerationModule = {
    db,
    repo,
    files: createDiskFileStore(db, o.config.dataDir, o.now),
    links,
    views: createViewBuilder(repo, links, o.now),
    jobs: runner,
    runner,
    providers: o.providers,
    now: o.now,
    log: o.log,
    uploadLimits: { maxBytes: o.config.uploadLimitBytes, maxPixels: MAX_UPLOAD_PIXELS },
  };
  for (const handler of [analysisJob, candidatesJob, regenerateJob, videoPromptsJob, videoJob]) {
    runner.register(handler(ctx));
  }
  return ctx;
}
