// The events of GET /collections/:id/events: the whole collection first (snapshot), then each item
// as it moves with the collection's fresh counts, the collection's status, a stage's progress while
// it runs, and the whole collection again as the end once it is completed or cancelled. Checked
// against the shared CollectionEvent the grid page is typed by.
import { z } from 'zod';
import type { CollectionEvent as SharedCollectionEvent } from '../../../shared/collections/collection-types.js';
import {
  byStageSchema,
  collectionItemViewSchema,
  collectionStatusSchema,
  collectionViewSchema,
  stageCountsSchema,
  stageSchema,
} from './collection-view-schemas.js';
import type { SameType } from './same-type.js';

const estimate = z.number().nullable().meta({ description: 'Time left in ms; null until one item is done.' });

export const collectionEventSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('snapshot'), collection: collectionViewSchema }),
    z.object({
      type: z.literal('item'),
      item: collectionItemViewSchema,
      counts: stageCountsSchema,
      by_stage: byStageSchema,
      estimate_ms: estimate,
    }),
    z.object({ type: z.literal('status'), status: collectionStatusSchema }),
    z.object({
      type: z.literal('progress'),
      item_id: z.number().int(),
      stage: stageSchema,
      progress: z.number().meta({ description: '0..100' }),
    }),
    z.object({ type: z.literal('end'), collection: collectionViewSchema }),
  ])
  .meta({ id: 'CollectionEvent', description: 'One `data:` line of a collection’s stream.' });
export type CollectionEvent = z.output<typeof collectionEventSchema>;

const sameShape: SameType<CollectionEvent, SharedCollectionEvent> = true;
void sameShape;
