// The events of POST /video-prompts-stream: three video prompts for each selected image, each
// image's text as it is written, each image's prompts or its error, then complete with every
// image's outcome (or error, when the stream itself fails). Complete and error end it.
import { z } from 'zod';
import { itemErrorSchema } from '../failure.js';
import { videoPromptSchema } from '../generation-views.js';
import { retryFields, streamErrorEvent } from '../stream-event-parts.js';

const imageId = z.number().int();

/** How one image's prompts ended, as complete lists them. */
export const videoPromptsOutcomeSchema = z.object({
  image_id: imageId,
  status: z.enum(['completed', 'failed']),
  prompts: z.array(videoPromptSchema),
  error: itemErrorSchema.optional(),
});
export type VideoPromptsOutcome = z.output<typeof videoPromptsOutcomeSchema>;

export const videoPromptsEventSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('connected'), image_ids: z.array(imageId) }),
    z.object({
      type: z.literal('progress'),
      image_id: imageId
        .optional()
        .meta({ description: 'The image this progress is about; none for the whole call.' }),
      progress: z.number().meta({ description: '0..100, over every image' }),
      message: z.string(),
      ...retryFields,
    }),
    z.object({
      type: z.literal('prompt_streaming'),
      image_id: imageId,
      index: z.number().int().meta({ description: 'Which of the image’s options the piece belongs to.' }),
      content: z.string(),
      offset: z.number().int().meta({ description: 'Where the piece starts in that option’s prompt.' }),
    }),
    z.object({ type: z.literal('prompt_streaming_reset'), image_id: imageId }),
    z.object({ type: z.literal('prompts'), image_id: imageId, prompts: z.array(videoPromptSchema) }),
    z.object({ type: z.literal('image_error'), image_id: imageId, code: z.string(), message: z.string() }),
    z.object({
      type: z.literal('complete'),
      count: z.number().int(),
      images: z.array(videoPromptsOutcomeSchema),
    }),
    streamErrorEvent,
  ])
  .meta({ id: 'VideoPromptsEvent', description: 'One `data:` line of the video prompt stream.' });
export type VideoPromptsEvent = z.output<typeof videoPromptsEventSchema>;
