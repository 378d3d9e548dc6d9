// The events of POST /regenerate-stream (spec §4: connected, start, progress, image_ready,
// complete, error; complete and error end it). The spec names the new images' source "gemini":
// the regenerate events say original or gemini where a GeneratedImage says original or regenerated.
import { z } from 'zod';
import { generatedImageSchema } from '../generation-views.js';
import { retryFields, streamErrorEvent } from '../stream-event-parts.js';

const ids = {
  original_generation_id: z.string().meta({ description: 'The generation the source image belongs to.' }),
  new_gemini_generation_id: z.string().meta({ description: 'The generation this call makes.' }),
};

/** An image as the regenerate events name it: the source image, or one this call made. */
const regenerateSource = z.enum(['original', 'gemini']);
export const regenerateImageSchema = generatedImageSchema
  .extend({ source: regenerateSource })
  .meta({ id: 'RegenerateImage' });

export const regenerateEventSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('connected'), ...ids }),
    z.object({
      type: z.literal('start'),
      ...ids,
      count: z.number().int(),
      image_ids: z.array(z.number().int()),
    }),
    z.object({
      type: z.literal('progress'),
      progress: z.number().meta({ description: '0..100' }),
      message: z.string(),
      ...retryFields,
    }),
    z.object({ type: z.literal('image_ready'), source: regenerateSource, image: generatedImageSchema }),
    z.object({
      type: z.literal('complete'),
      images: z.array(regenerateImageSchema),
      count: z.number().int(),
      gemini_count: z.number().int(),
      ...ids,
    }),
    streamErrorEvent,
  ])
  .meta({ id: 'RegenerateEvent', description: 'One `data:` line of the regenerate stream.' });
export type RegenerateEvent = z.output<typeof regenerateEventSchema>;
