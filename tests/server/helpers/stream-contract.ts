// Holds each event a test reads off a stream to the stream's schema, the one the OpenAPI document
// names and the PWA's types are generated from: parsed, it must come back unchanged (zod drops a
// field the schema does not name, so an extra field fails as a missing or mistyped one does).
import { expect } from 'vitest';
import type { z } from 'zod';
import { analyzeEventSchema } from '../../../server/modules/generation/analysis/analyze-events.js';
import { regenerateEventSchema } from '../../../server/modules/generation/analysis/regenerate-events.js';
import { videoPromptsEventSchema } from '../../../server/modules/generation/video-prompts/video-prompts-events.js';
import { videoEventSchema } from '../../../server/modules/generation/videos/video-events.js';
import { batchEventSchema } from '../../../server/modules/upscale/batch-events.js';
import { collectionEventSchema } from '../../../server/modules/collections/collection-events.js';
import { workshopStreamEventSchema } from '../../../server/modules/workshop/workshop-stream-events.js';

/** Each streaming call's path (its end, whatever the group's prefix) and its events' schema. */
const STREAMS: readonly [RegExp, z.ZodType][] = [
  [/\/analyze-images-json-stream$/, analyzeEventSchema],
  [/\/regenerate-stream$/, regenerateEventSchema],
  [/\/video-prompts-stream$/, videoPromptsEventSchema],
  [/\/user\/video-generations\/events$/, videoEventSchema],
  [/\/workshop\/items\/[^/]+\/events$/, workshopStreamEventSchema],
  [/\/upscale\/batch$/, batchEventSchema],
  [/\/collections\/[^/]+\/events$/, collectionEventSchema],
];

/** The schema of the stream at `url`; a stream without one fails the test. */
export function streamSchema(url: string): z.ZodType {
  const path = url.split('?')[0]!;
  const found = STREAMS.find(([pattern]) => pattern.test(path));
  if (!found) throw new Error(`no event schema for the stream at ${path}`);
  return found[1];
}

/** Fails unless every event is one of the stream's, with no field more or less. */
export function expectOnContract(url: string, events: readonly unknown[]): void {
  const schema = streamSchema(url);
  for (const event of events) {
    const parsed = schema.safeParse(event);
    expect(parsed.error?.issues ?? [], `${JSON.stringify(event).slice(0, 200)} against ${url}`).toEqual([]);
    expect(parsed.data, 'a field the schema does not name').toEqual(event);
  }
}
