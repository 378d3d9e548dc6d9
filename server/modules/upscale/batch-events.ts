// The events of POST /upscale/batch: every item announced as queued, then its progress and a
// result or an error (each names its index, as items may finish out of order); complete ends it.
import { z } from 'zod';

const index = z.number().int().meta({ description: 'The item’s place in the form’s files.' });

export const batchEventSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('queued'), index, filename: z.string(), total: z.number().int() }),
    z.object({ type: z.literal('progress'), index, fraction: z.number().meta({ description: '0..1' }) }),
    z.object({
      type: z.literal('result'),
      index,
      url: z.string().meta({ description: 'The signed link of the result image.' }),
      filename: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      message: z.string(),
    }),
    z.object({
      type: z.literal('error'),
      index,
      status: z.number().int(),
      code: z.string(),
      message: z.string(),
    }),
    z.object({
      type: z.literal('complete'),
      total: z.number().int(),
      succeeded: z.number().int(),
      failed: z.number().int(),
      message: z.string(),
    }),
  ])
  .meta({ id: 'UpscaleBatchEvent', description: 'One `data:` line of the batch stream.' });
export type BatchEvent = z.output<typeof batchEventSchema>;
