// The pieces the generation and workshop event streams share (spec §4): a retry's wait on a
// progress event, and the error event that ends a stream. Each stream's own union is a zod schema
// beside its route, named in the OpenAPI document, so the PWA's event types are generated from it.
import { z } from 'zod';

/** On a progress event while a provider call waits to be tried again. */
export const retryFields = {
  retry_in_ms: z
    .number()
    .optional()
    .meta({ description: 'The wait before the next attempt, when one is coming.' }),
  reason: z.string().optional().meta({ description: "The provider's error kind that is being retried." }),
};

/** Ends a stream: the failure's kind (or internal) and the words for the reader. */
export const streamErrorEvent = z.object({ type: z.literal('error'), code: z.string(), message: z.string() });

/** What a stream says once a request's text is started again after a cut: the text shown so far is dropped. */
export const streamingResetEvent = z.object({ type: z.literal('streaming_reset') });

/** A piece of text as it is written; `offset`: where it starts in this attempt's text. */
export const streamingEvent = z.object({
  type: z.literal('streaming'),
  content: z.string(),
  offset: z.number().int(),
});
