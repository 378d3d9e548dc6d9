// The feeder: at most COLLECTION_ACTIVE_ITEMS items of one collection are running; whenever one
// leaves `running` (or the collection resumes), the next queued items in sheet order start, in
// the same transaction as the move that freed their place. Starting an item queues the job of
// the stage it is at, with the transaction: no running item is without its job. Across users the
// job queue's round-robin keeps collections and single analyses fair.
import { COLLECTION_ACTIVE_ITEMS, type Stage } from '../../../shared/collections/collection-types.js';
import { NO_FAILURE } from '../generation/failure.js';
import { JOB_KINDS } from '../generation/job-topics.js';
import { createGenerationRepository } from '../generation/store/generation-repository.js';
import { generationDb } from '../generation/store/generation-tables.js';
import { parseCamera, parseFabric } from '../generation/store/stored-json.js';
import { mergedSettings, storedOverrides, storedSettings } from './collection-settings.js';
import { OPEN_ITEM_STATUSES } from './collection-states.js';
import type { CollectionItemRow, CollectionRow } from './collection-tables.js';
import { COLLECTION_JOB_KINDS, type CollectionsContext, type Step } from './collections-context.js';

/** A feeder that lost every race for a queued item tries this many times before leaving it to the next. */
const START_ATTEMPTS = 5;

/** The settings one item runs with. */
export function itemSettings(collection: CollectionRow, item: CollectionItemRow) {
  return mergedSettings(storedSettings(collection.settings_json), storedOverrides(item.overrides_json));
}

/**
 * Starts queued items while the collection runs and has room, and completes it when nothing is
 * left to run. The guarded touch of the collection row first (running → running) takes its row
 * lock on PostgreSQL, so two stages ending at once in one collection feed one after the other.
 */
export async function feed(c: CollectionsContext, step: Step, collectionId: number): Promise<void> {
  if (!(await step.repo.moveCollection(collectionId, 'running', {}, ['running']))) return;
  const collection = (await step.repo.collection(collectionId))!;
  let room = COLLECTION_ACTIVE_ITEMS - (await step.repo.countItems(collectionId, ['running']));
  for (let attempt = 0; room > 0 && attempt < START_ATTEMPTS; attempt += 1) {
    const next = await step.repo.nextQueued(collectionId, room);
    if (next.length === 0) break;
    for (const item of next) {
      if (await startItem(c, step, collection, item)) room -= 1;
    }
  }
  if ((await step.repo.countItems(collectionId, OPEN_ITEM_STATUSES)) === 0) {
    if (await step.repo.moveCollection(collectionId, 'completed', { completed_at: step.repo.now() }, ['running'])) {
      step.tell(collectionId, { type: 'status', status: 'completed' });
    }
  }
}

/** queued → running at the item's stage, with that stage's job; false when another start won. */
async function startItem(c: CollectionsContext, step: Step, collection: CollectionRow, item: CollectionItemRow): Promise<boolean> {
  const t = step.repo.now();
  const values = { started_at: item.started_at ?? t, stage_started_at: t, ...NO_FAILURE };
  if (!(await step.repo.moveItem(item.id, 'running', values, { from: ['queued'], stage: item.stage }))) return false;
  await startStage(c, step, collection, { ...item, ...values, status: 'running' }, item.stage);
  step.tell(collection.id, { type: 'item_moved', item_id: item.id });
  return true;
}

/**
 * Queues the job of `stage` for a running item, in the step's transaction. A job already
 * unfinished for the same row is answered by the queue instead of a second one. Every stage is
 * batch work (fair-share.ts), its analysis and prompts too: nobody watches each fabric's stream,
 * and a slot of each lane stays free for a person's analysis at the workflow page.
 */
export async function startStage(
  c: CollectionsContext,
  step: Step,
  collection: CollectionRow,
  item: CollectionItemRow,
  stage: Stage,
): Promise<void> {
  const { jobs } = c.gen;
  const options = { trx: step.trx };
  const userId = item.user_id;
  switch (stage) {
    case 'analysis':
    case 'candidates': {
      if (item.request_id === null) throw new Error(`collection item ${item.id} has no request`);
      const kind = stage === 'analysis' ? JOB_KINDS.analysis : JOB_KINDS.candidates;
      await jobs.enqueue({ kind, refId: item.request_id, userId, jobClass: 'batch' }, options);
      return;
    }
    case 'pick':
      await jobs.enqueue({ kind: COLLECTION_JOB_KINDS.pick, refId: item.id, userId }, options);
      return;
    case 'video_prompts': {
      if (item.picked_image_id === null) throw new Error(`collection item ${item.id} has no picked image`);
      const settings = itemSettings(collection, item);
      // The context the video prompts stream passes: the designer's words, language and fabric.
      // The item it runs for, too: a re-run finds whether its prompts are still awaited.
      const params = {
        collection_item_id: item.id,
        ...(settings.image_prompt ? { prompt: settings.image_prompt } : {}),
        language: collection.language,
        fabric: parseFabric(item.fabric_json),
      };
      await jobs.enqueue({ kind: JOB_KINDS.videoPrompts, refId: item.picked_image_id, userId, params, jobClass: 'batch' }, options);
      return;
    }
    case 'video':
      await startVideo(c, step, collection, item);
      return;
  }
}

/**
 * The item's video: its unfinished row's job again (a restart or a resume), or a new row from the
 * first video prompt and the settings, as the video call makes one, with its job.
 */
async function startVideo(c: CollectionsContext, step: Step, collection: CollectionRow, item: CollectionItemRow): Promise<void> {
  const gen = createGenerationRepository(generationDb(step.trx), c.gen.now);
  if (item.video_id !== null) {
    const open = await gen.video(item.video_id);
    if (open && (open.status === 'pending' || open.status === 'generating')) {
      await c.gen.jobs.enqueue({ kind: JOB_KINDS.video, refId: open.id, userId: item.user_id }, { trx: step.trx });
      return;
    }
  }
  if (item.picked_image_id === null || item.video_prompt_id === null) throw new Error(`collection item ${item.id} has no prompt to film`);
  const source = await gen.image(item.picked_image_id);
  const prompt = await gen.videoPrompt(item.video_prompt_id);
  if (!source?.file_id || !prompt) throw new Error(`collection item ${item.id}: its picked image or video prompt is gone`);
  const { video } = itemSettings(collection, item);
  const camera = video.camera.length > 0 ? video.camera : parseCamera(prompt.camera_json).slice(0, 3);
  // What the video call would have been asked: a retry from the video page asks it again.
  const spec = {
    image_id: source.id,
    kind: video.kind,
    video_prompt_id: prompt.id,
    camera,
    aspect: video.aspect,
    duration: video.duration,
    resolution: video.resolution,
    prompt_optimizer: true,
    watermark: false,
  };
  const row = await gen.insertVideo({
    user_id: item.user_id,
    source_image_id: source.id,
    last_image_id: null,
    video_prompt_id: prompt.id,
    retry_of_id: null,
    kind: video.kind,
    status: 'pending',
    user_prompt: null,
    video_prompt: prompt.prompt,
    style: source.style,
    camera_json: JSON.stringify(camera),
    aspect: video.aspect,
    duration_seconds: video.duration,
    resolution: video.resolution,
    prompt_optimizer: 1,
    watermark: 0,
    language: collection.language,
    first_frame_file_id: source.file_id,
    last_frame_file_id: null,
    provider: c.gen.providers.videoGenerator?.provider ?? null,
    model: null,
    task_id: null,
    provider_file_id: null,
    result_file_id: null,
    thumbnail_file_id: null,
    width: null,
    height: null,
    params_json: JSON.stringify(spec),
    progress: 0,
    requested_at: gen.now(),
    started_at: null,
    completed_at: null,
    processing_ms: null,
    ...NO_FAILURE,
  });
  if (!(await step.repo.moveItem(item.id, 'running', { video_id: row.id }, { from: ['running'], stage: 'video' }))) {
    throw new Error(`collection item ${item.id} moved on while its video was made`);
  }
  await c.gen.jobs.enqueue({ kind: JOB_KINDS.video, refId: row.id, userId: item.user_id }, { trx: step.trx });
}
