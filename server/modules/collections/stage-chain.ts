// The chain of one fabric's stages: analysis → candidates → pick → video prompts → video. Each
// generation job calls its hook (GenerationContext.stageEnds) inside the transaction of its final
// row move; the hook moves the item on and queues the next stage's job in that transaction, so a
// crash leaves both or neither. Every move is guarded by the stage the item is at: a stage's end
// told twice (a re-run after a restart) moves its item once, and nothing is queued twice.
// A paused collection lets the running stage finish and holds the next (the item goes back to
// `queued` at that stage); an item leaving `running` makes room for the feeder.
import type { Transaction, Updateable } from 'kysely';
import type { ItemStatus, Stage } from '../../../shared/collections/collection-types.js';
import type { Database } from '../../db/schema.js';
import type { AfterCommit, StageEnds, StageFailure } from '../generation/stage-ends.js';
import type { CollectionItemsTable, CollectionItemRow } from './collection-tables.js';
import { collectionTopic, stepIn, type CollectionsContext, type CollectionTopicEvent, type Step } from './collections-context.js';
import { feed, startStage } from './feeder.js';

type ItemValues = Omit<Updateable<CollectionItemsTable>, 'status' | 'stage'>;

/**
 * The item's stage `from` ended: it goes on to `next` (its job queued now), or waits at `next`
 * in `queued` while its collection is paused. False when the item had moved on already.
 */
export async function advance(c: CollectionsContext, step: Step, item: CollectionItemRow, from: Stage, next: Stage, values: ItemValues = {}): Promise<boolean> {
  await step.repo.lockCollection(item.collection_id);
  const collection = await step.repo.collection(item.collection_id);
  if (!collection) return false;
  const t = step.repo.now();
  const moved = { ...values, stage: next, stage_started_at: t };
  if (collection.status !== 'running') {
    // Paused (or finished meanwhile): the next stage waits for a resume, and the place is free.
    if (!(await step.repo.moveItem(item.id, 'queued', moved, { from: ['running'], stage: from }))) return false;
    step.tell(item.collection_id, { type: 'item_moved', item_id: item.id });
    return true;
  }
  if (!(await step.repo.moveItem(item.id, 'running', moved, { from: ['running'], stage: from }))) return false;
  await startStage(c, step, collection, { ...item, ...moved, status: 'running' }, next);
  step.tell(item.collection_id, { type: 'item_moved', item_id: item.id });
  return true;
}

/** The item leaves `running` at `stage` (review, done or failed): the feeder starts the next one. */
export async function leave(
  c: CollectionsContext,
  step: Step,
  item: CollectionItemRow,
  stage: Stage,
  to: Extract<ItemStatus, 'review' | 'done' | 'failed'>,
  values: ItemValues = {},
): Promise<boolean> {
  await step.repo.lockCollection(item.collection_id);
  const ended = to === 'review' ? {} : { completed_at: step.repo.now() };
  if (!(await step.repo.moveItem(item.id, to, { ...ended, ...values }, { from: ['running'], stage }))) return false;
  step.tell(item.collection_id, { type: 'item_moved', item_id: item.id });
  await feed(c, step, item.collection_id);
  return true;
}

/** The hooks the generation jobs call; a row of no collection gets a hook that does nothing. */
export function createStageChain(c: CollectionsContext): StageEnds {
  /** The item running this request now (a regenerated item's old request has none). */
  const itemOfRequest = async (step: Step, requestId: number): Promise<{ item: CollectionItemRow | undefined; ofBatch: boolean }> => {
    const request = await step.trx
      .withTables<{ generation_requests: { id: number; collection_item_id: number | null } }>()
      .selectFrom('generation_requests')
      .select('collection_item_id')
      .where('id', '=', requestId)
      .executeTakeFirst();
    if (!request || request.collection_item_id === null) return { item: undefined, ofBatch: false };
    const item = await step.repo.item(request.collection_item_id);
    return { item: item?.request_id === requestId ? item : undefined, ofBatch: true };
  };

  const failure = (f: StageFailure) => ({ error_code: f.error_code, error_key: f.error_key, error_detail: f.error_detail });

  const hook = async (trx: Transaction<Database>, fn: (step: Step) => Promise<void>): Promise<AfterCommit> => {
    const step = stepIn(c, trx);
    await fn(step);
    return step.told;
  };

  return {
    async analysed(trx, requestId) {
      const step = stepIn(c, trx);
      const { item, ofBatch } = await itemOfRequest(step, requestId);
      if (!ofBatch) return null;
      if (item) await advance(c, step, item, 'analysis', 'candidates');
      return step.told;
    },
    requestFailed: (trx, requestId, f) =>
      hook(trx, async (step) => {
        const { item } = await itemOfRequest(step, requestId);
        if (item && (item.stage === 'analysis' || item.stage === 'candidates')) await leave(c, step, item, item.stage, 'failed', failure(f));
      }),
    candidatesDone: (trx, requestId) =>
      hook(trx, async (step) => {
        const { item } = await itemOfRequest(step, requestId);
        if (item) await advance(c, step, item, 'candidates', 'pick');
      }),
    promptsAwaited: async (imageId) => (await c.repo.itemAwaitingPrompts(imageId)) !== undefined,
    videoPromptsReady: (trx, imageId) =>
      hook(trx, async (step) => {
        const item = await step.repo.itemAwaitingPrompts(imageId);
        if (!item) return;
        const first = await step.trx
          .withTables<{ video_prompts: { id: number; image_id: number; position: number } }>()
          .selectFrom('video_prompts')
          .select('id')
          .where('image_id', '=', imageId)
          .orderBy('position')
          .executeTakeFirst();
        if (!first) return;
        await advance(c, step, item, 'video_prompts', 'video', { video_prompt_id: first.id, video_id: null });
      }),
    videoPromptsFailed: (trx, imageId, f) =>
      hook(trx, async (step) => {
        const item = await step.repo.itemAwaitingPrompts(imageId);
        if (item) await leave(c, step, item, 'video_prompts', 'failed', failure(f));
      }),
    videoDone: (trx, videoId) =>
      hook(trx, async (step) => {
        const item = await step.repo.itemOfVideo(videoId);
        if (item) await leave(c, step, item, 'video', 'done');
      }),
    videoFailed: (trx, videoId, f) =>
      hook(trx, async (step) => {
        const item = await step.repo.itemOfVideo(videoId);
        if (item) await leave(c, step, item, 'video', 'failed', failure(f));
      }),
    progress(row, progress) {
      // The stage that reported it, not the item's stage when it is looked up: a fabric with one
      // candidate moved on to its pick first, and its candidates' 100 % came out as the pick's.
      const stage: Stage = 'videoId' in row ? 'video' : 'candidates';
      const tell = async () => {
        const item = 'videoId' in row ? await c.repo.itemOfVideo(row.videoId) : await c.repo.itemOfRequest(row.requestId);
        if (!item || item.status !== 'running') return;
        c.gen.jobs.publish(collectionTopic(item.collection_id), { type: 'progress', item_id: item.id, stage, progress } satisfies CollectionTopicEvent);
      };
      // A bar that misses a step is no failure of the stage: said in the log, never thrown.
      tell().catch((error: unknown) => c.gen.log.warn({ err: error }, 'collection progress could not be told'));
    },
  };
}
