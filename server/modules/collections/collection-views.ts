// Rows → what the collection read calls answer (collection-view-schemas.ts). Candidate and video
// links are the generation module's own signed links, made by its view builder (so a collection's
// images are named and linked as the history's are); failures and the pick's reason are in the
// reader's language. Every read is of one collection the caller has already checked is theirs.
import { z } from 'zod';
import {
  ITEM_STATUSES,
  STAGES,
  type CandidateView,
  type CollectionItemView,
  type CollectionSummary,
  type CollectionView,
  type Stage,
  type StageCounts,
} from '../../../shared/collections/collection-types.js';
import { isLanguage, FALLBACK_LANGUAGE } from '../../../shared/i18n/languages.js';
import { failureView } from '../generation/failure.js';
import { isMessageKey, message, type Locale } from '../../http/messages.js';
import type { GeneratedImageRow } from '../generation/store/generation-tables.js';
import { parseObject } from '../generation/store/stored-json.js';
import type { CollectionItemRow, CollectionRow } from './collection-tables.js';
import type { CollectionsContext } from './collections-context.js';
import { estimateTimeLeft, type OpenItem, type StageSamples } from './collection-estimate.js';
import { mergedSettings, storedOverrides, storedSettings } from './collection-settings.js';

/** The collections a list shows at most (newest first). */
export const MAX_LISTED_COLLECTIONS = 200;

/** What the pick rule stored (pick-score.ts, model-pick.ts); anything else reads as no figures. */
const pickRecord = z.object({
  rule: z.string(),
  /** Set when the collection asked for the model's ranking and the score stood in; no cause: written before there were rankers. */
  fallback: z.object({ from: z.string(), cause: z.string().optional() }).optional(),
  /** The model's ranking, best first, when it picked. */
  model: z.string().optional(),
  ranking: z.array(z.object({ image_id: z.number(), reason: z.string().optional() })).optional(),
  scores: z
    .array(z.object({ image_id: z.number(), detail: z.number(), colour: z.number(), score: z.number() }))
    .optional(),
});
type PickRecord = z.output<typeof pickRecord>;

function storedPick(json: string | null): PickRecord | null {
  const parsed = pickRecord.safeParse(parseObject(json));
  return parsed.success ? parsed.data : null;
}

export function emptyCounts(): StageCounts {
  return Object.fromEntries(ITEM_STATUSES.map((s) => [s, 0])) as StageCounts;
}

function countsOf(items: readonly Pick<CollectionItemRow, 'status'>[]): StageCounts {
  const counts = emptyCounts();
  for (const item of items) counts[item.status] += 1;
  return counts;
}

/** Items at each stage that are queued or running. */
function byStageOf(items: readonly Pick<CollectionItemRow, 'status' | 'stage'>[]): Record<Stage, number> {
  const byStage = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  for (const item of items) if (item.status === 'queued' || item.status === 'running') byStage[item.stage] += 1;
  return byStage;
}

/** Why the score stood in for the model, in the reader's language: no ranker, or the provider's failure. */
function fallbackReason(cause: string | undefined, measured: string, locale: Locale): string {
  const why = `reason_${cause}`;
  if (cause === undefined || cause === 'no_ranker' || !isMessageKey(why)) return message('pick_reason_model_fallback', locale, { reason: measured });
  return message('pick_reason_model_failed', locale, { why: message(why, locale), reason: measured });
}

const numberIn = (locale: Locale, digits: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

export function createCollectionViews(c: CollectionsContext) {
  /** The pick in words: the rule's figures for the winner, or who picked it. */
  const pickReason = (item: CollectionItemRow, candidates: CandidateView[], pick: PickRecord | null, locale: Locale): string | null => {
    if (item.pick_by === 'person') return message('pick_reason_person', locale);
    if (item.pick_by === 'model') {
      const first = pick?.ranking?.[0];
      return first?.image_id === item.picked_image_id && first.reason && pick?.model
        ? message('pick_reason_model_ranked', locale, { model: pick.model, reason: first.reason })
        : message('pick_reason_model', locale);
    }
    if (item.pick_by !== 'score') return null;
    const winner = pick?.scores?.find((s) => s.image_id === item.picked_image_id);
    const candidate = candidates.find((cv) => cv.image_id === item.picked_image_id);
    if (!winner || !candidate) return null;
    const figure = numberIn(locale, 2);
    const measured = message('pick_reason_score', locale, {
      position: candidate.position + 1,
      score: figure.format(winner.score),
      detail: figure.format(winner.detail),
      colour: figure.format(winner.colour),
    });
    return pick?.fallback ? fallbackReason(pick.fallback.cause, measured, locale) : measured;
  };

  /** Items → views, reading their images, prompts and videos together. */
  const itemViews = async (items: CollectionItemRow[], locale: Locale): Promise<CollectionItemView[]> => {
    const requestIds = items.flatMap((i) => (i.request_id === null ? [] : [i.request_id]));
    const originals = await c.gen.repo.imagesOfRequests(requestIds);
    // A picked image that is not one of the request's originals (a regenerated one) is shown beside them.
    const known = new Set(originals.map((r) => r.id));
    const pickedIds = items.flatMap((i) => (i.picked_image_id !== null && !known.has(i.picked_image_id) ? [i.picked_image_id] : []));
    const userId = items[0]?.user_id;
    const picked = userId === undefined ? [] : await c.gen.repo.imagesOfUser(userId, pickedIds);
    const imageRows = [...originals, ...picked];
    const imageViews = new Map((await c.gen.views.images(imageRows, locale)).map((v) => [v.id, v]));

    const promptIds = items.flatMap((i) => (i.video_prompt_id === null ? [] : [i.video_prompt_id]));
    const prompts =
      promptIds.length === 0
        ? []
        : await c.db.selectFrom('video_prompts').select(['id', 'prompt']).where('id', 'in', promptIds).execute();
    const promptText = new Map(prompts.map((p) => [p.id, p.prompt]));

    const videoIds = items.flatMap((i) => (i.video_id === null ? [] : [i.video_id]));
    const videoRows = userId === undefined ? [] : await c.gen.repo.videosOfUser(userId, videoIds);
    const videoViews = new Map((await c.gen.views.videos(videoRows, locale)).map((v) => [v.id, v]));

    const imagesOf = (item: CollectionItemRow): GeneratedImageRow[] => {
      const own = originals.filter((r) => r.request_id !== null && r.request_id === item.request_id);
      const extra = picked.filter((r) => r.id === item.picked_image_id);
      return [...own, ...extra];
    };

    return items.map((item) => {
      const pick = storedPick(item.pick_json);
      const scoreOf = new Map((pick?.scores ?? []).map((s) => [s.image_id, s.score]));
      const modelRankOf = new Map((pick?.ranking ?? []).map((r, index) => [r.image_id, index + 1]));
      const candidates: CandidateView[] = imagesOf(item).map((row) => {
        const view = imageViews.get(row.id);
        return {
          image_id: row.id,
          position: row.position,
          status: row.status,
          url: view?.url ?? null,
          thumbnail_url: view?.thumbnail_url ?? null,
          score: scoreOf.get(row.id) ?? null,
          model_rank: modelRankOf.get(row.id) ?? null,
        };
      });
      const video = item.video_id === null ? undefined : videoViews.get(item.video_id);
      return {
        id: item.id,
        position: item.position,
        code: item.code,
        name: item.name,
        status: item.status,
        stage: item.stage,
        error: failureView(item, locale),
        request_id: item.request_id,
        candidates,
        picked_image_id: item.picked_image_id,
        pick_by: item.pick_by,
        pick_reason: pickReason(item, candidates, pick, locale),
        video_prompt: item.video_prompt_id === null ? null : (promptText.get(item.video_prompt_id) ?? null),
        video: video
          ? { id: video.id, status: video.status, progress: video.progress, url: video.url, thumbnail_url: video.thumbnail_url }
          : null,
        updated_at: item.updated_at,
      };
    });
  };

  /**
   * How long this collection's items took at each stage, from the rows its stages leave: the
   * request's start, its first candidate's insert (the analysis writes them as it ends), the
   * request's end, the video's request and end. No row keeps the moment between a pick made by
   * the rule and the video prompts that follow, so for an item that ran straight through, its
   * pick counts as part of its video prompts (its pick as nothing); a pick that stopped for review
   * is measured to the move to review. Time spent waiting on a person is never counted, so the
   * video prompts of an item that stopped for review are not measured: the moment it was
   * approved is not kept once its video starts.
   */
  const stageSamples = async (items: CollectionItemRow[], stopsForReview: (item: CollectionItemRow) => boolean): Promise<StageSamples> => {
    const requestIds = items.flatMap((i) => (i.request_id === null ? [] : [i.request_id]));
    const videoIds = items.flatMap((i) => (i.video_id === null ? [] : [i.video_id]));
    const [requests, firstImages, videos] = await Promise.all([
      requestIds.length === 0
        ? []
        : c.db
            .selectFrom('generation_requests')
            .select(['id', 'started_at', 'completed_at', 'status'])
            .where('id', 'in', requestIds)
            .execute(),
      requestIds.length === 0
        ? []
        : c.db
            .selectFrom('generated_images')
            .select((eb) => ['request_id', eb.fn.min('created_at').as('first_at')])
            .where('request_id', 'in', requestIds)
            .where('parent_image_id', 'is', null)
            .groupBy('request_id')
            .execute(),
      videoIds.length === 0
        ? []
        : c.db
            .selectFrom('video_generations')
            .select(['id', 'requested_at', 'completed_at', 'status'])
            .where('id', 'in', videoIds)
            .execute(),
    ]);
    const requestById = new Map(requests.map((r) => [r.id, r]));
    const firstAt = new Map(firstImages.map((r) => [r.request_id, r.first_at as string | null]));
    const videoById = new Map(videos.map((v) => [v.id, v]));

    const samples: Record<Stage, number[]> = { analysis: [], candidates: [], pick: [], video_prompts: [], video: [] };
    const add = (stage: Stage, from: number, to: number) => {
      if (Number.isFinite(from) && Number.isFinite(to) && to >= from) samples[stage].push(to - from);
    };
    for (const item of items) {
      const request = item.request_id === null ? undefined : requestById.get(item.request_id);
      if (!request) continue;
      const analysed = ms(firstAt.get(request.id));
      add('analysis', ms(request.started_at), analysed);
      const candidatesEnd = request.status === 'completed' ? ms(request.completed_at) : Number.NaN;
      add('candidates', analysed, candidatesEnd);
      const byRule = item.pick_by === 'score' || item.pick_by === 'model';
      const video = item.video_id === null ? undefined : videoById.get(item.video_id);
      if (byRule && item.status === 'review') add('pick', candidatesEnd, ms(item.updated_at));
      if (byRule && video && !stopsForReview(item)) {
        // The pick's time is in the video prompts' span that follows it.
        samples.pick.push(0);
        add('video_prompts', candidatesEnd, ms(video.requested_at));
      }
      // From its request: a video waiting for the engine holds its fabric's place all the same.
      if (video?.status === 'completed') add('video', ms(video.requested_at), ms(video.completed_at));
    }
    return samples;
  };

  const estimate = async (collection: CollectionRow, items: CollectionItemRow[]): Promise<number | null> => {
    if (collection.status === 'cancelled') return null;
    const settings = storedSettings(collection.settings_json);
    const stopsForReview = (item: CollectionItemRow) => mergedSettings(settings, storedOverrides(item.overrides_json)).stop_for_review;
    const now = c.gen.now().getTime();
    const open: OpenItem[] = [];
    for (const item of items) {
      // A queued or running item has machine work ahead; one in review waits on a person.
      if (item.status !== 'queued' && item.status !== 'running') continue;
      const beforeReview = STAGES.indexOf(item.stage) <= STAGES.indexOf('pick');
      const since = ms(item.stage_started_at ?? item.started_at);
      open.push({
        position: item.position,
        status: item.status,
        stage: item.stage,
        stageElapsedMs: item.status === 'running' && Number.isFinite(since) ? Math.max(0, now - since) : 0,
        lastStage: stopsForReview(item) && beforeReview && item.pick_by !== 'person' ? 'pick' : 'video',
      });
    }
    return estimateTimeLeft(await stageSamples(items, stopsForReview), open);
  };

  const summaryOf = (collection: CollectionRow, counts: StageCounts): CollectionSummary => ({
    id: collection.id,
    client_collection_id: collection.client_collection_id,
    name: collection.name,
    status: collection.status,
    total: Object.values(counts).reduce((sum, n) => sum + n, 0),
    counts,
    created_at: collection.created_at,
    completed_at: collection.completed_at,
  });

  return {
    /** A user's collections, newest first, each with its counts. */
    async summaries(userId: number): Promise<CollectionSummary[]> {
      const collections = await c.db
        .selectFrom('collections')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(MAX_LISTED_COLLECTIONS)
        .execute();
      if (collections.length === 0) return [];
      const rows = await c.db
        .selectFrom('collection_items')
        .select((eb) => ['collection_id', 'status', eb.fn.countAll<string | number>().as('n')])
        .where('collection_id', 'in', collections.map((col) => col.id))
        .groupBy(['collection_id', 'status'])
        .execute();
      const counts = new Map(collections.map((col) => [col.id, emptyCounts()]));
      for (const row of rows) counts.get(row.collection_id)![row.status] += Number(row.n);
      return collections.map((col) => summaryOf(col, counts.get(col.id)!));
    },

    /** The whole collection: settings, counts, stages, time left and every item. */
    async view(collection: CollectionRow, locale: Locale): Promise<CollectionView> {
      const items = await c.repo.itemsOfCollection(collection.id);
      const [views, estimateMs] = await Promise.all([itemViews(items, locale), estimate(collection, items)]);
      return {
        ...summaryOf(collection, countsOf(items)),
        settings: storedSettings(collection.settings_json),
        language: isLanguage(collection.language) ? collection.language : FALLBACK_LANGUAGE,
        by_stage: byStageOf(items),
        estimate_ms: estimateMs,
        items: views,
      };
    },

    /** One item as it is now, with the collection's fresh counts; undefined when it is not the collection's. */
    async itemUpdate(collection: CollectionRow, itemId: number, locale: Locale) {
      const items = await c.repo.itemsOfCollection(collection.id);
      const item = items.find((i) => i.id === itemId);
      if (!item) return undefined;
      const [[view], estimateMs] = await Promise.all([itemViews([item], locale), estimate(collection, items)]);
      return { item: view!, counts: countsOf(items), by_stage: byStageOf(items), estimate_ms: estimateMs };
    },

    /** Items → views (the results sheet reads them too). */
    items: itemViews,
  };
}

export type CollectionViews = ReturnType<typeof createCollectionViews>;
