// The events of GET /user/video-generations/events: each video's view (a snapshot, and again when
// it ends), its progress while it runs, then complete once every video has ended.
import { z } from 'zod';
import { videoGenerationSchema } from '../generation-views.js';
import { retryFields } from '../stream-event-parts.js';

export const videoEventSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('video'), video: videoGenerationSchema }),
    z.object({
      type: z.literal('progress'),
      id: z.number().int(),
      status: videoGenerationSchema.shape.status,
      progress: z.number().optional().meta({ description: '0..100' }),
      message: z
        .string()
        .optional()
        .meta({
          description:
            'What a self-hosted engine says (queue position, sampler steps, frames), in the reader’s language.',
        }),
      ...retryFields,
    }),
    z.object({ type: z.literal('complete'), message: z.string() }),
  ])
  .meta({ id: 'VideoEvent', description: 'One `data:` line of the video progress stream.' });
export type VideoEvent = z.output<typeof videoEventSchema>;
