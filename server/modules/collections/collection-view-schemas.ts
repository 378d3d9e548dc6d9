// What the collection read calls answer, as zod schemas with OpenAPI ids (the PWA's generated
// types read them by name), checked below to be exactly the shared TypeScript shapes
// (shared/collections/collection-types.ts) the import and grid pages are typed by: a field renamed,
// added or retyped on either side fails the server's type-check.
import { z } from 'zod';
import { SUPPORTED_LANGUAGES } from '../../../shared/i18n/languages.js';
import {
  COLLECTION_STATUSES,
  ITEM_STATUSES,
  STAGES,
  type CandidateView,
  type CollectionItemView,
  type CollectionSettings,
  type CollectionSummary,
  type CollectionVideoView,
  type CollectionView,
  type StageCounts,
} from '../../../shared/collections/collection-types.js';
import { GENERATION_STATUSES } from '../generation/store/generation-tables.js';
import { collectionSettingsSchema } from './collection-settings.js';
import type { SameType } from './same-type.js';

const rowId = () => z.number().int();

/** An object with one field per key, all of one schema (a Record the OpenAPI document spells out field by field). */
function fieldsOf<K extends string, V extends z.ZodType>(keys: readonly K[], value: V) {
  return z.object(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, V>);
}

export const itemStatusSchema = z.enum(ITEM_STATUSES);
export const stageSchema = z.enum(STAGES).meta({
  id: 'CollectionStage',
  description: 'The stage running, the next to run, or the one that failed.',
});
export const collectionStatusSchema = z.enum(COLLECTION_STATUSES);

export const stageCountsSchema = fieldsOf(ITEM_STATUSES, z.number().int()).meta({
  id: 'CollectionCounts',
  description: 'Items in each status.',
});
export const byStageSchema = fieldsOf(STAGES, z.number().int()).meta({
  id: 'CollectionByStage',
  description: 'Items at each stage that are queued or running.',
});

export const candidateViewSchema = z
  .object({
    image_id: rowId(),
    position: z.number().int(),
    status: z.enum(GENERATION_STATUSES),
    url: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    score: z.number().nullable().meta({ description: 'The built-in score (0..1) when the pick rule measured it.' }),
    model_rank: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The candidate's place (1 = best) in the text model's ranking, when the model picked." }),
  })
  .meta({ id: 'CollectionCandidate' });

export const collectionVideoViewSchema = z
  .object({
    id: rowId(),
    status: z.enum(GENERATION_STATUSES),
    progress: z.number().meta({ description: '0..100' }),
    url: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
  })
  .meta({ id: 'CollectionVideo' });

export const collectionItemViewSchema = z
  .object({
    id: rowId(),
    position: z.number().int().meta({ description: "The row's place in the sheet." }),
    code: z.string(),
    name: z.string().nullable(),
    status: itemStatusSchema,
    stage: stageSchema,
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: "The failure in the reader's language." }),
    request_id: rowId().nullable().meta({ description: "The row id of the item's image request (ImageRequest.id)." }),
    candidates: z.array(candidateViewSchema),
    picked_image_id: rowId().nullable(),
    pick_by: z.enum(['score', 'model', 'person']).nullable(),
    pick_reason: z
      .string()
      .nullable()
      .meta({ description: "What the pick rule measured, or the text model's reason for its first choice, in the reader's language." }),
    video_prompt: z.string().nullable(),
    video: collectionVideoViewSchema.nullable(),
    updated_at: z.string(),
  })
  .meta({ id: 'CollectionItem' });

export const collectionSummarySchema = z
  .object({
    id: rowId(),
    client_collection_id: z.string(),
    name: z.string(),
    status: collectionStatusSchema,
    total: z.number().int(),
    counts: stageCountsSchema,
    created_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .meta({ id: 'CollectionSummary' });

export const collectionViewSchema = collectionSummarySchema
  .extend({
    settings: collectionSettingsSchema,
    language: z.enum(SUPPORTED_LANGUAGES),
    by_stage: byStageSchema,
    estimate_ms: z
      .number()
      .nullable()
      .meta({ description: "Time left, from this collection's measured stage durations; null until one item is done." }),
    items: z.array(collectionItemViewSchema),
  })
  .meta({ id: 'CollectionView' });

export const collectionListSchema = z
  .object({ items: z.array(collectionSummarySchema).meta({ description: 'Newest first.' }) })
  .meta({ id: 'CollectionList' });

// Each schema is exactly its shared shape; `true` does not compile where they differ.
const sameShapes: [
  SameType<z.output<typeof stageCountsSchema>, StageCounts>,
  SameType<z.output<typeof collectionSettingsSchema>, CollectionSettings>,
  SameType<z.output<typeof candidateViewSchema>, CandidateView>,
  SameType<z.output<typeof collectionVideoViewSchema>, CollectionVideoView>,
  SameType<z.output<typeof collectionItemViewSchema>, CollectionItemView>,
  SameType<z.output<typeof collectionSummarySchema>, CollectionSummary>,
  SameType<z.output<typeof collectionViewSchema>, CollectionView>,
] = [true, true, true, true, true, true, true];
void sameShapes;
