// Collection mode put together over the generation service: the context, the stage hooks the
// generation jobs call (set before the engine starts), the pick job on the same runner, and the
// main group's collection routes.
import type { FastifyInstance } from 'fastify';
import type { GenerationModule } from '../generation/generation-module.js';
import { collectionPickJob } from './collection-pick-job.js';
import { registerCollectionCommandRoutes } from './collection-command-routes.js';
import { registerCollectionReadRoutes } from './collection-read-routes.js';
import { createCollectionsContext, type CollectionsContext } from './collections-context.js';
import { createStageChain } from './stage-chain.js';

export type CollectionsModule = CollectionsContext;

/** Hooks the module into the generation jobs and registers its job; call before the engine starts. */
export function createCollectionsModule(generation: GenerationModule): CollectionsModule {
  const c = createCollectionsContext(generation);
  generation.stageEnds = createStageChain(c);
  generation.runner.register(collectionPickJob(c));
  return c;
}

/** The main group's collection routes. */
export function registerCollectionRoutes(app: FastifyInstance, c: CollectionsModule): void {
  registerCollectionCommandRoutes(app, c);
  registerCollectionReadRoutes(app, c);
}
