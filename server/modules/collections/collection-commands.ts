// What a person does to a running collection and to one of its fabrics: pause, resume, cancel,
// retry the failed ones; pick, approve, retry, skip or regenerate one item. Each is one
// transaction of guarded moves (collection-states.ts) that ends with the feeder, so the places a
// command frees are taken at once; a command the rows cannot take answers 409. Only a cancel
// stops jobs, after its moves committed: a stage that ends meanwhile finds its item cancelled.
import type { CollectionItemRow, CollectionRow } from './collection-tables.js';
import type { CollectionRef, ItemStatus } from '../../../shared/collections/collection-types.js';
import { AppError } from '../../http/app-error.js';
import { NO_FAILURE } from '../generation/failure.js';
import { JOB_KINDS } from '../generation/job-topics.js';
import { createGenerationRepository } from '../generation/store/generation-repository.js';
import { generationDb } from '../generation/store/generation-tables.js';
import { OPEN_ITEM_STATUSES } from './collection-states.js';
import { COLLECTION_JOB_KINDS, inStep, type CollectionsContext, type Step } from './collections-context.js';
import { refOf } from './create-collection.js';
import { feed } from './feeder.js';

/** A failed item goes back to its failed stage; what that stage reads is reopened first. */
const RESET = { ...NO_FAILURE, completed_at: null };

export function createCollectionCommands(c: CollectionsContext) {
  const own = async (userId: number, id: number): Promise<CollectionRow> => {
    const row = await c.repo.collectionOfUser(userId, id);
    if (!row) throw new AppError(404, 'not_found');
    return row;
  };
  const ownItem = async (userId: number, id: number, itemId: number) => {
    const collection = await own(userId, id);
    const item = await c.repo.itemOfCollection(collection.id, itemId);
    if (!item) throw new AppError(404, 'not_found');
    return { collection, item };
  };
  const current = async (id: number): Promise<CollectionRef> => refOf((await c.repo.collection(id))!);
  const cannot = (item: CollectionItemRow) => new AppError(409, 'collection_item_cannot_move', { vars: { status: item.status } });

  /** A finished collection runs again for an item a person sent back (a cancelled one never does). */
  const reopen = async (step: Step, collection: CollectionRow): Promise<void> => {
    if (collection.status === 'cancelled') throw new AppError(409, 'already_finished');
    if (await step.repo.moveCollection(collection.id, 'running', { completed_at: null }, ['completed'])) {
      step.tell(collection.id, { type: 'status', status: 'running' });
    }
  };

  /** failed → queued at its failed stage; the request is reopened when that stage is its own. */
  const requeueFailed = async (step: Step, item: CollectionItemRow): Promise<boolean> => {
    if (!(await step.repo.moveItem(item.id, 'queued', RESET, { from: ['failed'], stage: item.stage }))) return false;
    if ((item.stage === 'analysis' || item.stage === 'candidates') && item.request_id !== null) {
      await createGenerationRepository(generationDb(step.trx), c.gen.now).reopenRequest(item.request_id);
    }
    step.tell(item.collection_id, { type: 'item_moved', item_id: item.id });
    return true;
  };

  /** The jobs an item's running stage may have. */
  const stopJobs = async (item: CollectionItemRow): Promise<void> => {
    const { jobs } = c.gen;
    switch (item.stage) {
      case 'analysis':
      case 'candidates':
        if (item.request_id === null) return;
        await jobs.cancel(JOB_KINDS.analysis, item.request_id);
        await jobs.cancel(JOB_KINDS.candidates, item.request_id);
        return;
      case 'pick':
        await jobs.cancel(COLLECTION_JOB_KINDS.pick, item.id);
        return;
      case 'video_prompts':
        if (item.picked_image_id !== null) await jobs.cancel(JOB_KINDS.videoPrompts, item.picked_image_id);
        return;
      case 'video':
        if (item.video_id !== null) await jobs.cancel(JOB_KINDS.video, item.video_id);
        return;
    }
  };

  return {
    async pause(userId: number, id: number): Promise<CollectionRef> {
      const collection = await own(userId, id);
      if (collection.status === 'paused') return refOf(collection);
      await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        if (!(await step.repo.moveCollection(id, 'paused', {}, ['running']))) throw new AppError(409, 'already_finished');
        step.tell(id, { type: 'status', status: 'paused' });
      });
      return current(id);
    },

    async resume(userId: number, id: number): Promise<CollectionRef> {
      const collection = await own(userId, id);
      if (collection.status === 'running') return refOf(collection);
      await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        if (!(await step.repo.moveCollection(id, 'running', {}, ['paused']))) throw new AppError(409, 'already_finished');
        step.tell(id, { type: 'status', status: 'running' });
        await feed(c, step, id);
      });
      return current(id);
    },

    async cancel(userId: number, id: number): Promise<CollectionRef> {
      await own(userId, id);
      const stopped = await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        if (!(await step.repo.moveCollection(id, 'cancelled', { completed_at: step.repo.now() }, ['running', 'paused']))) {
          throw new AppError(409, 'already_finished');
        }
        step.tell(id, { type: 'status', status: 'cancelled' });
        const running: CollectionItemRow[] = [];
        for (const item of await step.repo.itemsOfCollection(id)) {
          if (!OPEN_ITEM_STATUSES.includes(item.status)) continue;
          if (!(await step.repo.moveItem(item.id, 'cancelled', { completed_at: step.repo.now() }, { from: [item.status] }))) continue;
          step.tell(id, { type: 'item_moved', item_id: item.id });
          if (item.status === 'running') running.push(item);
        }
        return running;
      });
      for (const item of stopped) await stopJobs(item);
      return current(id);
    },

    async retryFailed(userId: number, id: number): Promise<CollectionRef> {
      const collection = await own(userId, id);
      await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        const failed = (await step.repo.itemsOfCollection(id)).filter((item) => item.status === 'failed');
        // Nothing failed: nothing to run again (a finished collection stays finished).
        if (failed.length === 0) return;
        await reopen(step, collection);
        for (const item of failed) await requeueFailed(step, item);
        await feed(c, step, id);
      });
      return current(id);
    },

    /** The person's pick; an item waiting in review goes on to its video prompts with it. */
    async pick(userId: number, id: number, itemId: number, imageId: number): Promise<CollectionRef> {
      const { item } = await ownItem(userId, id, itemId);
      if (item.status !== 'review') throw cannot(item);
      const images = item.request_id === null ? [] : await c.gen.repo.imagesOfRequests([item.request_id]);
      if (!images.some((i) => i.id === imageId && i.status === 'completed' && i.file_id !== null)) {
        throw new AppError(400, 'collection_image_not_candidate');
      }
      await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        const values = { picked_image_id: imageId, pick_by: 'person' as const, stage: 'video_prompts' as const, stage_started_at: null };
        if (!(await step.repo.moveItem(item.id, 'queued', values, { from: ['review'], stage: 'pick' }))) throw cannot(item);
        step.tell(id, { type: 'item_moved', item_id: item.id });
        await feed(c, step, id);
      });
      return current(id);
    },

    /** review → on to the video prompts with the pick the rule made. */
    async approve(userId: number, id: number, itemId: number): Promise<CollectionRef> {
      const { item } = await ownItem(userId, id, itemId);
      if (item.status !== 'review' || item.picked_image_id === null) throw cannot(item);
      await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        const values = { stage: 'video_prompts' as const, stage_started_at: null };
        if (!(await step.repo.moveItem(item.id, 'queued', values, { from: ['review'], stage: 'pick' }))) throw cannot(item);
        step.tell(id, { type: 'item_moved', item_id: item.id });
        await feed(c, step, id);
      });
      return current(id);
    },

    async retry(userId: number, id: number, itemId: number): Promise<CollectionRef> {
      const { collection, item } = await ownItem(userId, id, itemId);
      if (item.status !== 'failed') throw cannot(item);
      await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        await reopen(step, collection);
        if (!(await requeueFailed(step, item))) throw cannot(item);
        await feed(c, step, id);
      });
      return current(id);
    },

    async skip(userId: number, id: number, itemId: number): Promise<CollectionRef> {
      const { item } = await ownItem(userId, id, itemId);
      const from: ItemStatus[] = ['queued', 'review', 'failed'];
      if (!from.includes(item.status)) throw cannot(item);
      await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        if (!(await step.repo.moveItem(item.id, 'skipped', { completed_at: step.repo.now() }, { from }))) throw cannot(item);
        step.tell(id, { type: 'item_moved', item_id: item.id });
        await feed(c, step, id);
      });
      return current(id);
    },

    /** done/review/failed → queued at the analysis with a fresh request; the old one stays in history. */
    async regenerate(userId: number, id: number, itemId: number): Promise<CollectionRef> {
      const { collection, item } = await ownItem(userId, id, itemId);
      const from: ItemStatus[] = ['done', 'review', 'failed'];
      if (!from.includes(item.status) || item.request_id === null) throw cannot(item);
      const oldRequestId = item.request_id;
      await inStep(c, async (step) => {
        await step.repo.lockCollection(id);
        await reopen(step, collection);
        const requests = createGenerationRepository(generationDb(step.trx), c.gen.now);
        const old = (await requests.request(oldRequestId))!;
        const earlier = await step.trx
          .withTables<{ generation_requests: { id: number; collection_item_id: number | null } }>()
          .selectFrom('generation_requests')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('collection_item_id', '=', item.id)
          .executeTakeFirstOrThrow();
        const fresh = await requests.insertRequest({
          user_id: old.user_id,
          client_request_id: `collection-item-${item.id}-${Number(earlier.n) + 1}`,
          prompt: old.prompt,
          description: old.description,
          fabric_json: old.fabric_json,
          language: old.language,
          aspect: old.aspect,
          status: 'pending',
          analysis_text: null,
          analysis_json: null,
          model: null,
          provider: null,
          started_at: null,
          completed_at: null,
          candidate_count: old.candidate_count,
          collection_item_id: item.id,
          ...NO_FAILURE,
        });
        await requests.addUploads(
          fresh.id,
          (await requests.uploads([oldRequestId])).map((u) => ({ fileId: u.file_id, role: u.role, position: u.position })),
        );
        const values = {
          ...RESET,
          stage: 'analysis' as const,
          request_id: fresh.id,
          picked_image_id: null,
          pick_by: null,
          pick_json: null,
          video_prompt_id: null,
          video_id: null,
          started_at: null,
          stage_started_at: null,
        };
        if (!(await step.repo.moveItem(item.id, 'queued', values, { from }))) throw cannot(item);
        step.tell(id, { type: 'item_moved', item_id: item.id });
        await feed(c, step, id);
      });
      return current(id);
    },
  };
}

export type CollectionCommands = ReturnType<typeof createCollectionCommands>;
