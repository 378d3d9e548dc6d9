// What the generation routes and job handlers share: tables, files, links, views, the job queue
// and the providers. Built once per app by generation-module.ts.
import type { FastifyBaseLogger } from 'fastify';
import type { UploadBudget } from '../../http/upload-budget.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { IdempotencyStore } from '../../http/idempotency-store.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { FileStore } from '../../storage/file-store.js';
import type { SignedLinks } from '../../storage/signed-links.js';
import type { UploadLimits } from '../../storage/upload-check.js';
import type { GenerationProviders } from './engines/generation-providers.js';
import type { GenerationRepository } from './store/generation-repository.js';
import type { GenerationDb } from './store/generation-tables.js';
import type { ViewBuilder } from './generation-views.js';
import type { StageEnds } from './stage-ends.js';

export interface GenerationContext {
  db: GenerationDb;
  /**
   * The same database over the app's base schema: transactions that also queue a job start here
   * (the job queue takes a `Transaction<Database>`); writes in them widen it with generationDb().
   */
  baseDb: Kysely<Database>;
  /** Idempotency-Key replays of the create calls (the prompt calls' store). */
  idempotency: IdempotencyStore;
  repo: GenerationRepository;
  files: FileStore;
  links: SignedLinks;
  views: ViewBuilder;
  jobs: JobQueue;
  providers: GenerationProviders;
  now: () => Date;
  log: FastifyBaseLogger;
  uploadLimits: UploadLimits;
  /** Upload bytes the image and workshop groups hold at once (GENERATION_MAX_INFLIGHT_BYTES). */
  uploads: UploadBudget;
  /**
   * Told by the jobs when a stage ends, inside the transaction of their final row move (collection
   * mode sets it before the engine starts); undefined when no batch drives the jobs.
   */
  stageEnds?: StageEnds;
}
