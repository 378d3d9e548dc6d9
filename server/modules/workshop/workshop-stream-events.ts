// The events of GET /workshop/items/:id/events, in the analyse stream's shapes: progress with the
// item's status, its text as it is written, then complete with the item or error (with the item
// when it ended failed). Complete and error end it. (WorkshopEvent is the job's own event.)
import { z } from 'zod';
import {
  retryFields,
  streamErrorEvent,
  streamingEvent,
  streamingResetEvent,
} from '../generation/stream-event-parts.js';
import { workshopItemSchema } from './workshop-views.js';

export const workshopStreamEventSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('progress'),
      status: workshopItemSchema.shape.status,
      message: z.string(),
      ...retryFields,
    }),
    streamingEvent,
    streamingResetEvent,
    z.object({ type: z.literal('complete'), data: workshopItemSchema }),
    streamErrorEvent.extend({
      data: workshopItemSchema.optional().meta({ description: 'The item, when it ended failed.' }),
    }),
  ])
  .meta({ id: 'WorkshopStreamEvent', description: 'One `data:` line of a workshop item’s stream.' });
export type WorkshopStreamEvent = z.output<typeof workshopStreamEventSchema>;
