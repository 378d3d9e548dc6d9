// What the collection commands, the create call, the stage hooks and the pick job share: the
// generation service they drive, the collection tables and the events of a collection's topic.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { GenerationContext } from '../generation/generation-context.js';
import type { CollectionStatus, Stage } from '../../../shared/collections/collection-types.js';
import { createCollectionRepository, type CollectionRepository } from './collection-repository.js';
import { collectionsDb, type CollectionsDb } from './collection-tables.js';

export const COLLECTION_JOB_KINDS = { pick: 'collection-pick' } as const;

/** The progress topic of one collection: its event stream listens here. */
export const collectionTopic = (id: number) => `collection:${id}`;

/** What the pipeline publishes on a collection's topic. */
export type CollectionTopicEvent =
  | { type: 'item_moved'; item_id: number }
  | { type: 'status'; status: CollectionStatus }
  | { type: 'progress'; item_id: number; stage: Stage; progress: number };

export interface CollectionsContext {
  gen: GenerationContext;
  db: CollectionsDb;
  repo: CollectionRepository;
}

/**
 * The writes of one transaction and what they will tell once it commits: events published
 * before the commit would send readers to rows that have not moved yet.
 */
export interface Step {
  trx: Transaction<Database>;
  repo: CollectionRepository;
  tell(collectionId: number, event: CollectionTopicEvent): void;
}

export function stepIn(c: CollectionsContext, trx: Transaction<Database>): Step & { told: () => void } {
  const said: [string, CollectionTopicEvent][] = [];
  return {
    trx,
    repo: c.repo.within(collectionsDb(trx)),
    tell: (collectionId, event) => void said.push([collectionTopic(collectionId), event]),
    told: () => {
      for (const [topic, event] of said) c.gen.jobs.publish(topic, event);
    },
  };
}

/** Runs `fn` in one transaction and publishes its events once it committed. */
export async function inStep<T>(c: CollectionsContext, fn: (step: Step) => Promise<T>): Promise<T> {
  let done: (() => void) | undefined;
  const result = await c.gen.baseDb.transaction().execute(async (trx) => {
    const step = stepIn(c, trx);
    const value = await fn(step);
    done = step.told;
    return value;
  });
  done?.();
  return result;
}

export function createCollectionsContext(gen: GenerationContext): CollectionsContext {
  const db = collectionsDb(gen.baseDb);
  return { gen, db, repo: createCollectionRepository(db, gen.now) };
}
