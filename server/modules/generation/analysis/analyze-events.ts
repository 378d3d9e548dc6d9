// The events of POST /analyze-images-json-stream (spec §4: progress, streaming, complete, error;
// complete and error end it). A progress event may carry where the work is: the analysis once it
// is saved, each candidate image as it is saved, the ids of the request on the first one.
import { z } from 'zod';
import { analysisDataSchema } from '../../../providers/capabilities.js';
import { generatedImageSchema, imageRequestSchema } from '../generation-views.js';
import { retryFields, streamErrorEvent, streamingEvent, streamingResetEvent } from '../stream-event-parts.js';

const analyzeProgressEvent = z.object({
  type: z.literal('progress'),
  progress: z.number().meta({ description: '0..100' }),
  message: z.string(),
  stage: z.enum(['analysed', 'image_ready']).optional(),
  analysis: z
    .object({ text: z.string(), data: analysisDataSchema.nullable() })
    .optional()
    .meta({ description: 'With stage analysed.' }),
  image: generatedImageSchema.optional().meta({ description: 'With stage image_ready.' }),
  request_id: z
    .string()
    .optional()
    .meta({ description: "The client's request id, on the first progress event." }),
  id: z
    .number()
    .int()
    .optional()
    .meta({ description: "The request's row id (ImageRequest.id), on the first progress event." }),
  index: z.number().int().optional().meta({ description: 'The candidate a self-hosted engine reports on.' }),
  ...retryFields,
});

export const analyzeEventSchema = z
  .discriminatedUnion('type', [
    analyzeProgressEvent,
    streamingEvent,
    streamingResetEvent,
    z.object({ type: z.literal('complete'), data: imageRequestSchema }),
    streamErrorEvent,
  ])
  .meta({ id: 'AnalyzeEvent', description: 'One `data:` line of the analyse stream.' });
export type AnalyzeEvent = z.output<typeof analyzeEventSchema>;
export type AnalyzeProgressEvent = z.output<typeof analyzeProgressEvent>;
